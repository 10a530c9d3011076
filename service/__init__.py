"""Services around the scoring engine: the session ledger (service.ledger)."""

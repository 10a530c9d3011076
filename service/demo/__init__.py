"""The demo camera: a folder of table frames the service runs on when no camera is attached."""

"""The small files the service keeps (the reads tally, a confirmed photo's labels) are written whole
or not at all, by any number of writers at once (service/files.py)."""

from __future__ import annotations

import threading

from service.files import write_whole


def test_writers_of_one_file_at_once_each_put_a_whole_file_there(tmp_path):
    path = tmp_path / "labels" / "a.json"
    texts = [str(i) * 100_000 for i in range(8)]
    errors: list[BaseException] = []

    def write(text: str) -> None:
        for _ in range(20):
            try:
                write_whole(path, text)
                assert path.read_text(encoding="utf-8") in texts      # never half of one, or two mixed
            except BaseException as e:                                # noqa: BLE001 - each is the test's
                errors.append(e)

    writers = [threading.Thread(target=write, args=(t,)) for t in texts]
    for w in writers:
        w.start()
    for w in writers:
        w.join()
    assert errors == []
    assert path.read_text(encoding="utf-8") in texts
    assert [p.name for p in path.parent.iterdir()] == ["a.json"]      # no temporary file left


def test_a_write_that_fails_leaves_the_file_as_it_was_and_no_temporary_one(tmp_path):
    path = write_whole(tmp_path / "reads.json", "[1]")
    try:
        write_whole(path, "\ud800")                                  # text no encoding writes
    except UnicodeEncodeError:
        pass
    else:
        raise AssertionError("a lone surrogate was written")
    assert path.read_text(encoding="utf-8") == "[1]"
    assert [p.name for p in tmp_path.iterdir()] == ["reads.json"]

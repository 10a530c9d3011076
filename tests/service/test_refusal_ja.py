"""The tablet's Japanese glosses: each put before the English line it explains, none where it
would say something else."""

from __future__ import annotations

import pytest

from service.refusal_ja import bilingual


@pytest.mark.parametrize("line, ja", [
    ("no yaku: dunhill needs at least one yaku", "役がありません"),
    ("this correction would not fit the later hands (hand 2: seats are now east Ben); undo them first",
     "後の局と合わなくなる"),
    ("too many plain fives 5p: 3 seen (hand 2, dora indicators 1)", "黒の五が多すぎます"),
    ("hand record: melds[0].from is the winner's own seat", "鳴いた相手が和了者自身"),
    ("hand record: discarder is the winner's own seat", "放銃者が和了者自身"),
    ("the game is over (a player started a hand at or below 0)", "半荘は終了"),
    ("new rule: a house rule's name is its file's name: use letters, digits, '-' or '_' (at most 64), got 'あ'",
     "ルール名は半角英数字"),
    ("/rules/ours.toml exists already: edit it, or choose another name", "同じ名前のルールがあります"),
    # the camera and the reading, at the table: what is wrong and what to do
    ("cannot open camera 'rtsp://staff:***@10.0.0.5/stream1'", "カメラの映像がありません。カメラの電源とケーブル"),
    ("camera folder /srv/cam holds no images", "カメラの映像がありません"),
    ("no new frame for 12 s from camera '0'", "カメラの映像がありません"),
    ("no homography: markers [4, 5, 3] are bunched on one side of the table; the last good fit is for "
     "1280x720 frames, this one is 1920x1080", "卓の位置がわかりません"),
    ("no revealed hand: no hand zone holds two face-up tiles", "和了者の手牌が見つかりません"),
    ("tsumo or ron cannot be seen on the table: check it", "ツモかロンか読めません"),
    ("too few of the table's markers seen in this frame (covered?): used the last good fit", "マーカーが隠れています"),
    ("no revealed hand: no 5 face-up tiles lie side by side", "手牌が見つかりません。写真が横向きなら"),
    ("the upload is 18,312,000 bytes, the limit is 12,000,000", "画像が大きすぎます"),
    ("the image is 9000x6000, larger than 8192 pixels on a side", "画像が大きすぎます"),
    ("the upload is not an image this service reads (send a JPEG, PNG, WebP or BMP image)", "画像として読めません"),
])
def test_a_known_refusal_reads_japanese_first(line, ja):
    assert bilingual(line).startswith(ja) and bilingual(line).endswith(line)


def test_a_line_already_bilingual_or_unknown_is_left_as_it_is():
    for line in ("手牌を入力 enter the hand: tap tiles below", "the table cannot write to its disk"):
        assert bilingual(line) == line

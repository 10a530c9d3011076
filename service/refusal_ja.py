"""The tablet's refusals in both languages: the engine and the ledger say what is wrong in English
(one line, for the API and the command line); the players at the table read Japanese first. Each
gloss is found by a phrase of the English line and put before it; what the line names (a count, a
tile) the gloss carries over, as ``\\g<name>`` of the phrase's named group."""

from __future__ import annotations

import re

# (a phrase of the English line, what the players read first); the first found is used
GLOSSES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), ja) for p, ja in (
    # first: whatever is wrong with it, the hand held apart is not the one on screen
    (r"the other winner's hand, held, is refused", "保留中のもう一人の和了が数えられません(「もう一人を直す」で直してください)"),
    (r"\bno yaku\b", "役がありません(ドラ・ガリ・赤は役ではありません)"),
    (r"not a winning hand", "和了の形になっていません"),
    (r"the hand has \d+ tiles? counting 3 per meld", "牌の数が合いません(鳴きは3枚と数えて14枚)"),
    (r"too many copies of", "同じ牌が多すぎます"),
    (r"too many red fives", "赤五が多すぎます"),
    (r"too many plain fives", "黒の五が多すぎます(赤五を黒と読んでいませんか)"),
    (r"would not fit the later hands", "後の局と合わなくなるため、この訂正はできません"),
    (r"in gari is not a gari", "ガリではない牌がガリにあります"),
    (r"is a gari under .*set aside", "ガリは手牌に入れられません"),
    (r"gari in the hand", "この役ではガリを手牌に入れられません"),
    (r"is not in (the|this hand's) .*wall", "この卓にない牌です"),
    (r"plays one suit per hand", "筒子か索子の一色のみです"),
    (r"melds\[\d+\]\.from is the winner's own seat", "鳴いた相手が和了者自身になっています"),
    (r"discarder is the winner's own seat", "放銃者が和了者自身になっています"),
    (r"riichi needs a closed hand", "立直は門前のみです"),
    (r"ippatsu needs riichi", "一発には立直が必要です"),
    (r"^tenhou is the dealer's closed tsumo", "天和は親の門前ツモだけです"),
    (r"^chiihou is a non-dealer's closed tsumo", "地和は子の門前ツモだけです"),
    (r"^renhou is a non-dealer's closed ron", "人和は子の門前ロンだけです"),
    (r"come before the winner's first discard", "天和・地和・人和に立直・一発は付きません"),
    (r"^rinshan is a tsumo win", "嶺上開花はツモ和了だけです"),
    (r"^rinshan needs a kan", "嶺上開花には槓が必要です"),
    (r"^chankan is a ron win", "搶槓はロン和了だけです"),
    (r"^haitei is a tsumo win", "海底はツモ和了です(ロンは河底)"),
    (r"^houtei is a ron win", "河底はロン和了です(ツモは海底)"),
    (r"ura_indicators are only turned for a riichi", "裏ドラは立直のときだけです"),
    (r"^nagashi is paid like a tsumo", "流しはツモとして払います。ツモを選んでください"),
    (r"nagashi is lost", "流しの権利がありません"),
    (r"choose who made the chombo", "チョンボした人を選んでください"),
    (r"a session has three players", "3人の別々のプレイヤーを入れてください"),
    (r"the game is over", "半荘は終了しています"),
    (r"has no 罰符", "このルールに罰符はありません"),
    (r"must be a number of yen", "金額を数字で入れてください(なしは 0)"),
    (r"a house rule's name is its file's name", "ルール名は半角英数字と - _ だけです"),
    (r"is a built-in rule's name", "組み込みのルール名は使えません"),
    (r"exists already: edit it, or choose another name", "同じ名前のルールがあります"),
    (r"member code .* is taken", "その会員番号は使われています"),
    (r"no member code \d+", "その会員番号の会員はいません。名前で入れてください"),
    (r"played in one session .*: they are two players", "同じ半荘に座った二人は統合できません"),
    (r"cannot be merged into themselves", "同じ会員どうしは統合できません"),
    (r"is merged into", "統合済みの会員です(統合先で直してください)"),
    (r"is not merged into anyone", "統合されていない会員です"),
    (r"no player named", "その名前の会員はいません"),
    (r"the upload is [\d,]+ bytes, the limit is|larger than \d+ pixels on a side", "画像が大きすぎます。小さくして送ってください"),
    (r"the upload is not an image this service reads", "画像として読めません(JPEG・PNG・WebP・BMP で送ってください)"),
    (r"image is damaged or cut short", "画像が壊れているか、途中で切れています。もう一度送ってください"),
    (r"^the upload is empty", "画像が空です。JPEG・PNG・WebP・BMP で送ってください"),
    (r"the upload is empty", "画像が空です。写真を選んでください"),
    # the camera and the reading: what is wrong at the table, and what the players can do
    (r"cannot open camera|holds no images|gave no frame|has no frame yet|no new frame for|camera folder .* cannot be read",
     "カメラの映像がありません。カメラの電源とケーブルを確かめてください(手で入力するか、手牌の写真でも記録できます)"),
    (r"no homography", "卓の位置がわかりません。縁のマーカーが手や物で隠れていないか確かめてください"),
    (r"too few of the table's markers seen", "マーカーが隠れています(前回の卓の位置で読みました)"),
    (r"no revealed hand: no \d+ face-up tiles lie side by side", "手牌が見つかりません。写真が横向きなら、牌が横に並ぶ向きで撮り直してください"),
    (r"no revealed hand", "和了者の手牌が見つかりません。表向きに並べてください"),
    (r"tsumo or ron cannot be seen", "ツモかロンか読めません。選んでください"),
    (r"frames disagree", "読みが揃いません。確かめてください"),
    (r"(?P<n>\d+) back\(s\) in (the line|.* hand row)", r"手牌に裏向きの牌が \g<n> 枚あります(読んでいません)"),
    (r"the winning tile is not set apart: took the last tile", "和了牌が離して置かれていません(最後の牌を和了牌としました。確かめてください)"),
    (r"in the gari zone is no gari", "ガリの場所にガリでない牌があります"),
    (r"a back read as", "裏向きの牌を表の牌と読みました。確かめてください"),
    (r"boxes in \d+ mm of the hand row", "手牌の列の牌の数が合いません。確かめてください"),
    (r"a double ron is two rons by the two other players", "ダブロンは放銃者以外の二人のロンです"),
    # a photo of the hand, taken at the seat (vision.hand_photo, service.mending): what to check
    (r"^13 tiles in the line: the winning tile is not among them", "写真の牌は13枚で、和了牌がありません。和了牌を選んでください"),
    (r"(the line holds|the hand has) (?P<c>\d+) concealed tiles?(\(s\))? and (?P<m>\d+) meld\(s\): (?P<n>\d+), not (?P<h>\d+)",
     r"手牌 \g<c> 枚と鳴き \g<m> 組で \g<n> 枚です(\g<h> 枚になりません)。確かめてください"),
    (r"who each meld was called from cannot be seen", "誰から鳴いたかは写真ではわかりません。確かめてください"),
    (r"a box read (?P<t>\S+) held two tiles: read again as (?P<r>\S+)",
     r"\g<t> と読んだ所に2枚ありました。1枚目を \g<r> と読み直しました。確かめてください"),
    (r"(?P<t>\S+) read where the line's spacing says a tile was missed",
     r"牌の間隔から見落としとみて、そこを \g<t> と読みました。確かめてください"),
    (r"^read again .*: the first reading made no winning hand", "最初の読みでは和了の形にならず、読み直しました。確かめてください"),
    (r"^read (?P<r>\S+) in the gari, counted as (?P<t>\S+): .*next choice for that tile \((?P<p>[\d%]+)\)",
     r"ガリの \g<r> はこのルールのガリではないため、次の候補の \g<t> (\g<p>)としました。確かめてください"),
    (r"^read (?P<r>\S+), counted as (?P<t>\S+): .*next choice for that tile \((?P<p>[\d%]+)\)",
     r"読んだままでは和了にならないため、\g<r> を次の候補の \g<t> (\g<p>)としました。確かめてください"),
    (r"^as read the tiles make no winning hand; one tile read otherwise would make one",
     "読んだままでは和了の形になりません。次のどれか1枚の読み違いです。確かめてください"),
    (r"the winning tile is not shown: the hand waits on (?P<t>\S+) alone, .*\(a five: red or plain, check\)",
     r"和了牌が写っていません。待ちは \g<t> だけなので和了牌としました(赤か黒か確かめてください)"),
    (r"the winning tile is not shown: the hand waits on (?P<t>\S+) alone",
     r"和了牌が写っていません。待ちは \g<t> だけなので和了牌としました"),
    (r"the hand waits on (?P<t>.+): pick the winning tile", r"待ちは \g<t> です。和了牌を選んでください"),
    # the hand editor's taps and Confirm
    (r"^(?P<n>.+) is ticked among others' riichi and is the held winner",
     r"保留中の和了者 \g<n> が他家立直に入っています。「もう一人を直す」で立直を付けるか、チェックを外してください"),
    (r"^(?P<n>.+) is ticked among others' riichi and is the winner",
     r"和了者の \g<n> が他家立直に入っています。立直を付けるか、和了者を選び直してください"),
    (r"a ron record must name its discarder", "ロンは放銃者を選んでください"),
    (r"a double ron starts from a ron with its discarder", "ダブロンは、ロンと放銃者を選んでから押してください"),
    (r"this is already a double ron", "すでにダブロンです"),
    (r"has no double ron", "このルールにダブロンはありません"),
    (r"the hand does not hold its winning tile yet \(13 tiles\)", "手牌は13枚で和了牌がありません。下の牌から選んでください"),
    (r"^(?P<t>\S+) is no longer in .*: it was fixed already", r"\g<t> はもう直されています"),
    (r"^(?P<t>\S+) is no longer in ", r"\g<t> はもうありません(別の操作で変わりました)"),
    (r"^no meld \d+( in the hand|$)|has no tile \d+$", "その牌・鳴きはもうありません。画面を確かめてください"),
    (r"of meld \d+ is no five", "その牌は五ではありません"),
    (r"^(bad box|cannot pick|unknown target|unknown editor action|unknown tile field|bad tile position)|^the editor's ",
     "画面から送られた内容が読めません。ページを再読み込みしてください"),
    (r"honours are 1z-7z", "字牌は 1z から 7z です"),
    (r"bad tile text|is not one tile|tiles must be an mpsz string", "牌の書き方が違います(例: 123m 456p 77z)"),
    (r"^no hand (?P<n>\d+): the session has", r"第\g<n>局はありません(取り消されたかもしれません)"),
    (r"declared riichi but was not tenpai", "立直した人がテンパイになっていません(流局後のチョンボとして記録してください)"),
    (r"unknown session", "この半荘はありません(カウンターで取り消されたか、別の卓の半荘です)。はじめの画面に戻ってください"),
    (r"logged entr(y|ies): a session with hands is kept", "記録のある半荘は取り消せません"),
    (r"players are named .*: choose one by member code", "同じ名前のプレイヤーがいます。会員番号で選んでください"),
))
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def bilingual(message: str) -> str:
    """``message`` with its Japanese gloss first, where one is known and it has none yet."""
    if JAPANESE.search(message.split(":", 1)[0]):
        return message
    for pattern, ja in GLOSSES:
        if found := pattern.search(message):
            return f"{found.expand(ja)} · {message}"
    return message

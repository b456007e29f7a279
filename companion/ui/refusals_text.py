"""The rules' refusals in the user's language, with players named as the app names them.

The rules core gives every refusal a ``code`` and plain ``params`` (``companion/rules/refusals.py``,
whose :data:`~companion.rules.refusals.TEMPLATES` are the English).  This module holds the Japanese
template of every code and the words each kind of field reads as (players by their name or colour,
resources, pieces and phases with the app's own words), and :func:`describe`, the one function a
screen calls to show a refusal, a board problem or an umpire's recorded breach.

Adding a code: its English template goes in the core table, its Japanese one in :data:`JA` below;
``tests/test_refusals_text.py`` fails until both exist with the same fields.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from companion.rules.errors import BoardError, BoardProblem
from companion.rules.refusals import TEMPLATES, Refusal, Words, fields, render

from ..own_words import own_word
from . import i18n, i18n_extra
from .places import Places, StarPlaces

PlayerName = Callable[[int], str]

# code -> Japanese template; the fields (and their names) are the English template's, the kinds after
# the colon may differ.  A spot's field reads as players say the place (Places), and the board view rings it.
JA: dict[str, str] = {
    "malformed_event": "記録の形式が正しくありません（{detail}）",
    "illegal_action": "ルール上できません（{detail}）",
    "board_format": "盤面データの形式が正しくありません（{detail}）",
    # turn and phase
    "game_over": "ゲームは終了しています",
    "ended_by_time": "ラウンドの制限時間でゲームは終了しています",
    # (the screen puts "できません：" before every refusal: "今はできません：" here read it twice)
    "wrong_phase": "現在は{phase:phase}の段階です（{needs:phases}の段階で行います）",
    "out_of_turn": "{player:player}の手番ではありません（今は{turn:player}の手番です）",
    "setup_wrong_player": "初期配置：今は{expected:player}が置く番です（{player:player}ではありません）",
    "setup_settlement_first": "初期配置：{player:player}はまず開拓地を置きます（{piece:piece}ではありません）",
    "setup_road_next": "初期配置：{player:player}は次に道を置きます（{piece:piece}ではありません）",
    "special_build_not_queued": "{player:player}は今は建設できません：特別建設の残りは{left:players}です",
    "special_build_over": "{player:player}は今は建設できません：特別建設で建設できる人はもういません",
    # placing pieces
    "vertex_off_land": "{vertex:vertex}はこの盤面の陸地にありません",
    "vertex_taken": "{vertex:vertex}にはすでに建物があります",
    "distance_rule": "{vertex:vertex}は{neighbour:vertex}に近すぎます（距離ルール：開拓地の隣の角は空けておきます）",
    "settlement_not_connected": "{vertex:vertex}は{player:player}の道につながっていません",
    "road_off_land": "道は陸地に置きます：{edge:edge}ではなく、陸地のヘクスに接する辺をタップしてください",
    "edge_taken": "{edge:edge}にはすでに駒があります",
    "setup_link_not_touching": "初期配置の{piece:piece}（{edge:edge}）は置いたばかりの開拓地に接していなければなりません",
    "road_not_connected": "{edge:edge}は{player:player}の道・開拓地・都市につながっていません",
    "no_piece_left": "{player:player}の{piece:piece}はもう残っていません",
    "no_legal_spot": "{player:player}が今{piece:piece}を建てられる場所はありません",
    "city_needs_settlement": "都市は{player:player}の開拓地と置き換えます：{vertex:vertex}にあるのは{there:building}です",
    "no_building_at": "{vertex:vertex}には開拓地も都市もありません",
    "no_piece_on_edge": "{edge:edge}には駒がありません",
    # paying and the bank
    "cannot_afford": "{player:player}は{purpose:purpose}の費用（{cards:cards}）を払えません（手札：{holds:hand}）",
    "bank_short": "銀行の{resource:resource}は{have}枚しかなく、{n}枚は渡せません",
    "does_not_hold": "{player:player}は{cards:cards}を持っていません",
    "unseen_all_in_bank": "{player:player}は{resource:resource}を払えません：{n}枚すべてが銀行にあります",
    "unseen_all_placed": "{player:player}は見えていないカードで{resource:resource}を払えません：{n}枚のうち銀行に"
                         "{bank}枚、残り{known}枚も所在が分かっています",
    "does_not_hold_hand": "{player:player}は{cards:cards}を持っていません（手札：{holds:hand}）",
    "hand_lacks": "手札に{cards:cards}がありません（手札：{holds:hand}）",
    "empty_hand": "手札が空なのでカードを取れません",
    # gold fields
    "gold_not_owed": "{player:player}は金鉱のカードを受け取りません（受け取る人：{owed:owed}）",
    "gold_count": "{player:player}が金鉱で受け取るのは{n}枚です（{got}枚ではありません）",
    "gold_count_bank": "{player:player}が金鉱で受け取るのは{n}枚です（{got}枚ではありません。銀行には{n}枚しかありません）",
    "gold_bank_short": "{player:player}は{short:bank_short}を受け取れません。別の資源を選んでください",
    # the 7
    "no_discard_owed": "{player:player}は捨てる必要がありません",
    "discard_count": "{player:player}が捨てるのは{owed}枚です（{got}枚ではありません）",
    "robber_off_land": "盗賊は盤面の陸地のヘクスに移動します：{hex:hex}は陸地ではありません",
    "robber_must_move": "盗賊は移動しなければなりません：すでに{hex:hex}にいます",
    "not_steal_candidate": "{victim:player}からはここでは奪えません（奪える相手：{candidates:players}）",
    "nothing_to_steal": "{victim:player}は奪えるカードを持っていません",
    # development cards
    "dev_deck_empty": "発展カードの山はもうありません",
    "dev_card_gone": "山に{card:card}のカードはもう残っていません",
    "dev_already_played": "{player:player}はこの手番にすでに発展カードを使いました",
    "dev_bought_this_turn": "{player:player}は{card:card}を使えません：この手番に買ったカードです",
    "dev_none": "{player:player}は{card:card}を使えません：持っていません",
    "dev_none_to_play": "{player:player}は使える発展カードを持っていません",
    "dev_all_new": "{player:player}は発展カードを使えません：どれもこの手番に買ったカードです",
    "reveal_too_many": "{player:player}は勝利点カードを{n}枚公開できません：勝利点カードでありうる発展カードは{held}枚だけです",
    "reveal_vp_gone": "{player:player}は勝利点カードをあと{n}枚公開できません：行方の分からない勝利点カードは{left}枚だけです",
    "year_of_plenty_two": "収穫では資源を2枚受け取ります",
    "monopoly_too_few": "{other:player}は{resource:resource}を少なくとも{known}枚持っているので、{n}枚ではなく{known}枚以上渡します",
    # trades
    "trade_no_gift": "交易では双方がカードを出します（贈与はできません）",
    "trade_like_for_like": "同じ資源どうしは交換できません（{same:resources}）",
    "trade_ratio": "{player:player}の{resource:resource}の交換比率は{ratio}:1なので、{resource:resource}{n}枚では割り切れません",
    "trade_bank_count": "{give:cards}で銀行から受け取れるのは{bought}枚です（{got}枚ではありません）",
    "trade_self": "自分自身とは交易できません",
    # Seafarers
    "ship_already_moved": "{player:player}はこの手番にすでに船を動かしました",
    "ship_move_same": "船は{edge:edge}以外の場所へ動かします",
    "no_movable_ship": "{player:player}には今動かせる船がありません（開いた航路の端の船で、この手番に作ったものでなく、海賊に接していないもの）",
    "ship_off_water": "{edge:edge}は両側が陸地です：船は海路と海岸にだけ置けます",
    "ship_by_pirate": "{edge:edge}は海賊のいる{pirate:hex}に接しているので船を置けません",
    "ship_not_connected": "{edge:edge}は{player:player}の船・開拓地・都市につながっていません",
    "no_ship_there": "{edge:edge}に{player:player}の船はありません",
    "ship_new": "{edge:edge}の船はこの手番に作ったので、次の手番まで動かせません",
    "ship_pirate_stuck": "{edge:edge}の船は海賊のいる{pirate:hex}に接しているので動かせません",
    "ship_not_route_end": "{edge:edge}の船は開いた航路の端ではありません（両端に建物か船があります）",
    "no_robber_in_game": "このゲームに盗賊はいません：海賊を動かしてください",
    "robber_to_sea": "盗賊は海に入りません：{hex:hex}は海です（そこへは海賊を動かします）",
    "no_pirate": "このゲームに海賊はいません",
    "pirate_off_sea": "海賊は盤面の海のヘクスに移動します：{hex:hex}は海ではありません",
    "pirate_to_frame": "海賊は外枠の海には入りません：{hex:hex}は外枠です",
    "pirate_must_move": "海賊は移動しなければなりません：すでに{hex:hex}にいます",
    # High Tide
    "islet_setup": "{vertex:vertex}は小島{islet:hex}にあります：初期の開拓地は小島に置けません",
    "dike_special_build": "特別建設では堤防を作れません",
    "dike_spring_tide": "大潮ではもう堤防を作れません",
    "dike_too_early": "堤防ラウンドの前には堤防を作れません",
    "no_dike_card": "{player:player}の堤防カードはもう残っていません",
    "dike_off_land": "堤防は陸地のヘクスを守ります：{hex:hex}は陸地ではありません",
    "dike_there": "{hex:hex}にはすでに堤防があります",
    "no_flood_owed": "今は浸水しません（満潮で7以外が出たときに潮が来ます）",
    "flood_off_land": "{hex:hex}は陸地ではありません：潮が奪うのは陸地だけです",
    "flood_wrong_hex": "潮が奪うのは出目の数字の陸地です：{choices:hexes}のどれかで、{hex:hex}ではありません",
    "robber_stays_in_desert": "変種「盗賊は砂漠へ」：高波ラウンドの間、盗賊は砂漠に留まるので{hex:hex}へは動かせません（7では海賊を動かすか、何も動かしません）",
    # the card game
    "card_no_card": "{player:player}には交換に出すカードがありません",
    "card_exchange_after_build": "交換は建設の前に行います：この手番はすでに建設しました",
    "card_exchanges_used": "{player:player}がこの手番にできる交換は{allowed}回です（A面の街道{roads}本）",
    "card_exchange_needs_road": "街道カードがないときは山札としか交換できません",
    "card_exchange_self": "自分自身とは交換できません",
    "card_paid_wrong": "{paid:cards}では{piece:piece}（{cost:cards}）を払えません：足りない1枚ごとに同じカード3枚が必要です",
    "card_built_kind": "{player:player}はこの手番にすでに{piece:piece}を建設しました（各種1回まで）",
    "card_city_needs_settlement": "都市は{player:player}の開拓地を裏返します：開拓地がありません",
    "card_has_expansion": "{player:player}はすでに{kind:piece}を持っています",
    "card_no_free_city": "都市拡充は拡充のない都市に置きます：{player:player}には空いた都市がありません",
    "card_expansion_deck_empty": "都市拡充の山はもうありません",
    "card_settlement_deck_empty": "開拓地の山がないので開拓地を建設できません",
    "card_flip_only_settlement": "運命カードを裏返せるのは新しい開拓地だけです（盗賊の襲撃では必ず裏返します）",
    "card_fate_points": "運命カード（{fate:fate}）が指すのは{target:player}の{piece:piece}です（{named:player}ではありません）",
    "card_nobody_to_take": "{piece:piece}の山がなく、守られていない{piece:piece}カードを持つ隣の人もいません",
    "card_cannot_pay": "{player:player}は{cards:cards}を払えません（手札{size}枚：{holds:hand}）",
    "card_discard_count": "{player:player}の手札は{size}枚なので{n}枚は捨てられません",
    # Starfarers
    "setup_colony_wrong_player": "初期配置：今は{expected:player}がコロニーを置く番です（{player:player}ではありません）",
    "spaceport_needs_colony": "宇宙港リングは{player:player}のコロニーに付けます：{site:edge}にあるのは{there:building}です",
    "upgrade_max": "{player:player}の母船に付けられる{piece:piece}は{max}個までです",
    "upgrade_box_empty": "箱に{piece:piece}はもう残っていません",
    "upgrade_too_few": "{player:player}の{piece:piece}は{have}個しかないので、それ以上は失えません",
    "setup_spaceport_phase": "現在は{phase:phase}の段階です（初期の宇宙港はすべての初期コロニーの後です）",
    "setup_spaceport_wrong_player": "初期配置：今は{expected:player}が宇宙港を置く番です（{player:player}ではありません）",
    "setup_spaceport_needs_colony": "初期の宇宙港は{player:player}のコロニーに置きます：{site:edge}にあるのは{there:building}です",
    "balls_too_many": "母船の{colour:ball}玉は{have}個だけです（{n}個ではありません）",
    "no_ship_for_flight": "{player:player}の船は宇宙にありません：飛行フェイズはとばして手番を終えます",
    "half_medals_too_few": "{player:player}のハーフメダルは{have}枚なので{n}枚は失えません",
    "half_medals_all_out": "ハーフメダルは{max}枚しかありません",
    "no_ship_kind_in_space": "{player:player}の{ship:piece}は宇宙にありません",
    "no_station": "{hex:hex}に異星人の交易ステーションはありません",
    "station_full": "{hex:hex}のステーションのドック{docks}か所はすべて埋まっています",
    "freight_rings_short": "{player:player}には{hex:hex}にドッキング済みの{docked}基より多くの船倉が必要です（{rings}個）",
    "no_marker": "{hex:hex}に{marker:marker}のマーカーはありません",
    "marker_too_strong": "{hex:hex}の{marker:marker}の強さは{strength}で、{player:player}の{gear:piece}は{have}個です",
    "no_ship_to_reach": "{player:player}にはそこへ行く船が宇宙にありません",
    "no_hidden_chip": "{hex:hex}に裏向きのチップはありません",
    "no_colony_at": "{site:edge}にコロニーも宇宙港もありません",
    "not_colony_site": "{site:edge}はコロニーの地点（同じ星系の2つの惑星の間）ではありません",
    "colony_site_taken": "コロニーの地点{site:edge}はすでに使われています",
    "setup_colony_not_catan": "初期コロニーはカタン星系に置きます：{site:edge}はカタン星系ではありません",
    "planet_marker_blocks": "惑星{hex:hex}にはまだ{marker:marker}のマーカーがあります：{marker:cleared}されるまで隣にコロニーを置けません",
    "system_unexplored": "{site:edge}の星系はまだ裏向きです（{hexes:hexes}）：宇宙船が探査して数字チップを表にしてからでないとコロニーを設置できません",
    "flight_owed": "{player:player}の宇宙船が{ships}隻宇宙にあります：手番を終える前に航行フェイズです（母船を振ってください）",
    "system_full": "3人のときは星系の3地点のうち2地点までです：{site:edge}の星系は埋まっています",
    # boards
    "board_not_object": "盤面はオブジェクトで書きます（{kind}になっています）",
    "board_no_hexes": "盤面のhexesにはヘクスを1つ以上並べます",
    "hex_entry_not_object": "hexesの{index}番目（0から数えて）はオブジェクトで書きます",
    "hex_not_pair": "{where}：整数2つの[q, r]で書きます（{value}になっています）",
    "number_not_integer": "数字は整数で書きます（{number}になっています）",
    "flags_not_bool": "isletとframeはtrueかfalseで書きます（{islet}、{frame}になっています）",
    "harbors_not_list": "盤面のharborsはリストで書きます（{value}になっています）",
    "harbor_entry_shape": "harborsの{index}番目（0から数えて）は{{\"edge\": [[q, r], [q, r]], \"trade\": ...}}の形で書きます",
    "harbor_hexes_apart": "港の一覧の{index}番目（0から数えて）：{a:hex}と{b:hex}は隣り合っていないので辺がありません",
    "hex_listed_twice": "2回書かれています",
    "unknown_terrain": "地形{terrain!r}は不明です（使える地形：{known:names}）",
    "harbor_trade_unknown": "港の種類{trade!r}は不明です（使える種類：{known:names}）",
    "two_harbors": "{edge:edge}に港が2つあります",
    "number_on_blank": "{terrain:terrain}に数字は置きません（{number}があります）",
    "number_missing": "{terrain:terrain}には数字チップが必要です",
    "number_not_token": "数字{number}のチップはありません（2〜6と8〜12）",
    "islet_not_land": "小島は陸地でなければなりません",
    "frame_not_sea": "外枠になるのは海のヘクスだけです",
    "harbor_not_coast": "{edge:edge}の{trade:trade}の港は海岸にありません（片側が陸、反対側が海の辺に置きます）",
    "figure_off_board": "{figure:figure}が盤面にないヘクスにいます",
    "robber_on_sea": "盗賊は陸地に置きます",
    "pirate_on_land": "海賊は海に置きます",
    "robber_not_on_desert": "盗賊は{desert:hex}から始めます（今は{hex:hex}にいます）：砂漠を選んで「砂漠」を押すと移ります",
    "red_numbers_adjacent": "{number}と{other}が隣り合っています（{hex:hex}と。6と8は隣に置きません）",
    "terrain_count": "{terrain:terrain}：{have}枚（標準セットは{want}枚）",
    "numbers_missing": "標準セットより足りない数字チップ：{numbers:numbers}",
    "numbers_extra": "標準セットより多い数字チップ：{numbers:numbers}",
}
# code -> the app's English where the core's names a spot by its coordinates ("vertex [[0, 0], ...]"): the
# app says the place as players do ("too close to Ben's settlement", Places) and rings it on the board.
APP_EN: dict[str, str] = {
    "vertex_off_land": "{vertex:vertex} is not on the land of this board",
    "vertex_taken": "{vertex:vertex} already stands there",
    "distance_rule": "too close to {neighbour:vertex} (distance rule: a settlement needs a free corner on every side)",
    "settlement_not_connected": "{player:player} has no road to {vertex:vertex}",
    "road_off_land": "a road goes on land: tap a side that touches a land hex, not {edge:edge}",
    "edge_taken": "{edge:edge} is already there",
    "setup_link_not_touching": "the set-up {piece:piece} must touch the settlement just placed",
    "road_not_connected": "{edge:edge} does not join a road, settlement or city of {player:player}",
    "city_needs_settlement": "a city replaces one of {player:player}'s settlements; that corner has "
                             "{there:building}",
    "no_building_at": "there is no settlement or city on {vertex:vertex}",
    "no_piece_on_edge": "there is no piece on {edge:edge}",
    "robber_off_land": "the robber must go to a land hex, not {hex:hex}",
    "ship_move_same": "the ship must move somewhere else",
    "ship_off_water": "{edge:edge} has land on both sides: ships sail on sea lanes and coasts only",
    "ship_by_pirate": "{edge:edge} borders the pirate ({pirate:hex}): no ship may be placed there",
    "no_ship_there": "{player:player} has no ship on {edge:edge}",
    "ship_new": "{edge:edge} was built this turn and cannot move until a later turn",
    "ship_pirate_stuck": "{edge:edge} borders the pirate ({pirate:hex}) and cannot move",
    "ship_not_route_end": "{edge:edge} is not the end of an open route (a building or a ship at both ends)",
    "robber_to_sea": "the robber never goes to sea: move the pirate to {hex:hex}",
    "pirate_off_sea": "the pirate must go to a sea hex, not {hex:hex}",
    "pirate_to_frame": "the pirate never moves onto the sea frame ({hex:hex})",
    "islet_setup": "{vertex:vertex} is on an islet ({islet:hex}): no initial settlement on an islet",
    "dike_there": "{hex:hex} already has a dike",
    "flood_wrong_hex": "the tide takes a land hex with the number rolled: {choices:hexes}, not {hex:hex}",
    "two_harbors": "two harbors on {edge:edge}",
    "harbor_not_coast": "the {trade:trade} harbor on {edge:edge} is not on a coast (land on one side, sea on the "
                        "other)",
    "red_numbers_adjacent": "next to {hex:hex} (no 6 or 8 side by side)",
    "number_on_blank": "a {terrain:terrain} carries no number (has {number})",
    # (the places as players say them; the board editor puts the robber on the desert tapped with Desert)
    "robber_not_on_desert": "the robber starts on {desert:hex}, not on {hex:hex}: select the desert, then tap Desert",
}
# code -> the app's English with no spot in it, used with or without place words: the screen puts "Not allowed: "
# before every refusal, and the core's "not allowed now: " read it twice.
APP_EN_PHRASES: dict[str, str] = {
    "wrong_phase": "the game is at {phase:phase}; this comes at {needs:phases}",
    "setup_spaceport_phase": "the game is at {phase:phase}; the set-up spaceports come after all set-up colonies",
}
TEXT: dict[str, dict[str, str]] = {"en": {**TEMPLATES, **APP_EN, **APP_EN_PHRASES}, "ja": JA}

# Japanese names of what fields name, beyond the app's own words (i18n: resources, terrains, colours).
JA_NAMES: dict[str, str] = {
    # pieces (the app's road/settlement/city/ship/dike words come from i18n)
    "road": "道", "settlement": "開拓地", "city": "都市", "ship": "船", "dike": "堤防",
    "knight": "騎士", "expansion": "都市拡充", "development": "発展カード",
    "colony": "コロニー", "spaceport": "宇宙港", "spaceport_ring": "宇宙港リング", "transport_ship": "輸送船",
    "trade_station": "交易ステーション", "colony_ship": "移民船", "trade_ship": "交易船",
    "booster": "動力炉", "cannon": "搭載砲", "freight_ring": "船倉",
    "church": "教会", "city_wall": "城壁", "town_hall": "議事堂", "library": "図書館",
    "merchant_guild": "商人ギルド", "other": "その他",
    # development cards
    "victory_point": "勝利点", "road_building": "街道建設", "year_of_plenty": "収穫", "monopoly": "独占",
    # balls, fate, figures, harbors
    "yellow": "黄", "red": "赤", "blue": "青", "black": "黒", "white": "白",
    "robber": "盗賊", "pirate": "海賊", "3:1": "3:1",
}
# A phase as the screen says it ("the game is at set-up (settlements); this comes at the roll"); the core's
# words are its field names ("setup settlement", "roll").
EN_PHASES: dict[str, str] = {
    "setup_settlement": "set-up (settlements)", "setup_road": "set-up (roads)", "roll": "the roll",
    "discard": "the discards", "move_robber": "moving the robber", "steal": "the steal",
    "main": "building and trading", "gold": "the gold choice", "special_build": "the special building phase",
    "flood": "the flood", "game_over": "the game's end", "setup_colony": "set-up (colonies)",
    "setup_spaceport": "set-up (spaceports)", "encounter": "an encounter", "flight": "the flight",
    "exchange": "the exchange", "build": "building",
}
JA_PHASES: dict[str, str] = {
    "setup_settlement": "初期配置（開拓地）", "setup_road": "初期配置（道）", "roll": "ダイス",
    "discard": "捨て札", "move_robber": "盗賊の移動", "steal": "略奪", "main": "建設・交易",
    "gold": "金鉱の選択", "special_build": "特別建設", "flood": "浸水", "game_over": "ゲーム終了",
    "setup_colony": "初期コロニー", "setup_spaceport": "初期宇宙港", "encounter": "遭遇", "flight": "飛行",
    "exchange": "交換", "build": "建設",
}
JA_PURPOSE = {"discard": "捨て札", "trade": "交易", "encounter": "遭遇"}
JA_MARKER = {"pirate": "海賊基地", "ice": "氷の惑星"}
JA_CLEARED = {"pirate": "撃破", "ice": "開拓"}


def _app_word(key: str, lang: str) -> str | None:
    """The app's own word for ``key`` (resources, terrains, colours), from either text table."""
    for table in (i18n.TEXT, i18n_extra.TEXT):
        entry = table.get(key)
        if entry is not None:
            return entry.get(lang) or entry.get("en")
    return None


def _default_name(player: int) -> str:
    return f"player {player}"


class PlaceWords:
    """Spots said as players say them when the screen gives its board (:class:`~companion.ui.places.Places`);
    without one, as the record writes them (the core's words)."""

    places: Places | None = None

    def vertex(self, v) -> str:
        return self.places.vertex(v) if self.places is not None else Words.vertex(self, v)

    def edge(self, e) -> str:
        return self.places.edge(e) if self.places is not None else Words.edge(self, e)

    def hex(self, h) -> str:
        return self.places.hex(h) if self.places is not None else Words.hex(self, h)

    def hexes(self, hexes) -> str:
        return self.places.hexes(hexes) if self.places is not None else Words.hexes(self, hexes)


class AppEnglish(PlaceWords, Words):
    """The core's English, with players named as the app names them."""

    def __init__(self, player_name: PlayerName, places: Places | None = None):
        self.player_name = player_name
        self.places = places

    def player(self, p: int | None) -> str:
        return self.player_name(p) if p is not None else "nobody"

    def players(self, seats: list[int]) -> str:
        return ", ".join(self.player(p) for p in seats) or "nobody"

    def building(self, there: list | None) -> str:
        return "nothing" if there is None else f"{self.player(there[0])}'s {self.name(there[1])}"

    def phase(self, value: str) -> str:
        return EN_PHASES.get(value) or self.name(value)


class Japanese(PlaceWords, Words):
    """Every kind of field in Japanese: players by name or colour, the app's words for the rest (``game``'s own
    where its seed has one: ore is 鉱石 in Starfarers and the card game)."""

    def __init__(self, player_name: PlayerName, places: Places | None = None, game: str | None = None):
        self.player_name = player_name
        self.places = places
        self.game = game

    def player(self, p: int | None) -> str:
        return self.player_name(p) if p is not None else "なし"

    def players(self, seats: list[int]) -> str:
        return "、".join(self.player(p) for p in seats) or "なし"

    def name(self, value: str) -> str:
        # this module's names first (the app's "knight" is a button: "play knight"), then the app's
        # words for resources and terrains
        if isinstance(value, str):
            value = own_word(self.game, value)
        return JA_NAMES.get(value) or _app_word(value, "ja") or str(value)

    piece = card = resource = ball = fate = terrain = trade = figure = name

    def phase(self, value: str) -> str:
        return JA_PHASES.get(value) or self.name(value)

    def phases(self, phases: list[str]) -> str:
        return "または".join(self.phase(p) for p in phases)

    def resources(self, names: list[str]) -> str:
        return "、".join(self.name(n) for n in names)

    names = resources

    def numbers(self, numbers: list[int]) -> str:
        return "、".join(str(n) for n in numbers)

    def cards(self, cards: Mapping[str, int]) -> str:
        return "、".join(f"{self.name(r)}{n}枚" for r, n in sorted(cards.items()) if n) or "なし"

    def hand(self, holds: Mapping[str, int]) -> str:
        parts = [f"{self.name(r)}{n}枚" for r, n in sorted(holds.items()) if n and r != "unseen"]
        if holds.get("unseen"):
            parts.append(f"不明{holds['unseen']}枚")
        return "、".join(parts) or "なし"

    def building(self, there: list | None) -> str:
        return "何もない" if there is None else f"{self.player(there[0])}の{self.piece(there[1])}"

    def purpose(self, what: str) -> str:
        return JA_PURPOSE.get(what) or self.piece(what)

    def marker(self, marker: str) -> str:
        return JA_MARKER[marker]

    def cleared(self, marker: str) -> str:
        return JA_CLEARED[marker]

    def owed(self, pairs: list[list[int]]) -> str:
        return "、".join(f"{self.player(p)}{n}枚" for p, n in pairs) or "なし"

    def bank_short(self, short: Mapping[str, int]) -> str:
        return "、".join(f"{self.name(r)}（銀行に{n}枚）" for r, n in short.items())


class CardGameJapanese(Japanese):
    """The card game's Japanese: its road is 街道, as its button and its cards say (one word per thing in a game;
    its refusals said 道)."""

    def name(self, value: str) -> str:
        return CARD_GAME_JA_NAMES.get(value) or Japanese.name(self, value)

    piece = card = resource = ball = fate = terrain = trade = figure = name


#: The card game's own words where the hex-board games' differ (i18n_extra's cg_road: 街道).
CARD_GAME_JA_NAMES = {"road": "街道"}


def words(lang: str, player_name: PlayerName | None = None, places: Places | None = None,
          code: str = "", game: str | None = None) -> Words:
    """The words a refusal's fields read as; ``game`` (the record's game name; else a ``card_`` code's game)
    gives that game's own words."""
    name = player_name or _default_name
    if code.startswith("card_"):
        game = "card-game"
    if lang == "ja":
        return (CardGameJapanese if game == "card-game" else Japanese)(name, places, game)
    return AppEnglish(name, places)


def render_refusal(refusal: Refusal, lang: str, player_name: PlayerName | None = None,
                   places: Places | None = None, game: str | None = None) -> str:
    """One refusal's sentence in ``lang`` (English when the language has no template for the code); with
    ``places``, spots are said as players say them, else as the record writes them."""
    template = TEXT.get(lang, {}).get(refusal.code)
    if template is None:
        lang, template = "en", TEMPLATES[refusal.code]
    if places is None and lang == "en" and refusal.code in APP_EN:
        template = TEMPLATES[refusal.code]  # the app's English for spots assumes place words
    return render(refusal.code, refusal.params, words(lang, player_name, places, refusal.code, game), template)


def _problem(problem: BoardProblem, lang: str, player_name: PlayerName | None, places: Places | None,
             game: str | None = None) -> str:
    text = render_refusal(problem.refusal, lang, player_name, places, game)
    if problem.at is None:
        return text
    if places is not None:
        return f"{places.hex(problem.at)}：{text}" if lang == "ja" else f"{places.hex(problem.at)}: {text}"
    return f"ヘクス{list(problem.at)}：{text}" if lang == "ja" else f"hex {list(problem.at)}: {text}"


def describe(what: Any, lang: str, player_name: PlayerName | None = None, places: Places | None = None,
             game: str | None = None) -> str:
    """What the rules said, in ``lang``: a :class:`RulesError` (board errors list every problem), a
    :class:`BoardProblem`, a :class:`Refusal`, an umpire's recorded breach (an outcome's warning);
    any other text is shown as it is.  ``player_name(seat)`` names players (the app's
    ``player_name``: the name given, else the colour); ``places`` names the spots (else coordinates); ``game``
    (the record's game name) gives that game's own words (ore: 鉱石 in Starfarers and the card game)."""
    if isinstance(what, BoardError) and what.problems:
        return ("；" if lang == "ja" else "; ").join(_problem(p, lang, player_name, places, game)
                                                     for p in what.problems)
    if isinstance(what, BoardProblem):
        return _problem(what, lang, player_name, places, game)
    refusal = what if isinstance(what, Refusal) else getattr(what, "refusal", None)
    if isinstance(refusal, Refusal):
        return render_refusal(refusal, lang, player_name, places, game)
    return str(what)


SPOT_KINDS = ("vertex", "edge", "hex")


def refusal_spots(what: Any) -> list[tuple]:
    """The spots a refusal (or a board problem, or a board error's problems) is about, as the rules' tuples:
    what the board view rings next to the words."""
    if isinstance(what, BoardError):
        return [s for p in what.problems for s in refusal_spots(p)]
    out: list[tuple] = []
    if isinstance(what, BoardProblem):
        if what.at is not None:
            out.append(tuple(what.at))
        what = what.refusal
    refusal = what if isinstance(what, Refusal) else getattr(what, "refusal", None)
    if not isinstance(refusal, Refusal):
        return out
    template = TEMPLATES.get(refusal.code, "")
    for name, kind in fields(template).items():
        value = refusal.params.get(name)
        if not value:
            continue
        if kind in SPOT_KINDS:
            out.append(_as_spot(value))
        elif kind == "hexes":
            out.extend(_as_spot(h) for h in value)
    return out


def _as_spot(value) -> tuple:
    if value and isinstance(value[0], (list, tuple)):
        return tuple(sorted(tuple(h) for h in value))
    return tuple(value)


def app_word(key: str, lang: str) -> str:
    """A terrain or piece as a place name uses it: the app's word, lower case in English ("Settlement" is a
    button's word, "Ben's settlement" a sentence's)."""
    if lang == "ja":
        return JA_NAMES.get(key) or _app_word(key, "ja") or key
    return (_app_word(key, "en") or key.replace("_", " ")).lower()


def places_for(board, lang: str, player_name: PlayerName, buildings=None, pieces=None):
    """The place words for ``board``: hexes and pieces (Places), Starfarers' planets and sites (StarPlaces);
    None for a game without a board (the card game)."""
    if board is not None and getattr(board, "planets", None) is not None:
        # (Starfarers' ore has its own Japanese word, 鉱石)
        return StarPlaces(board, lang, lambda key: app_word(own_word("starfarers", key), lang), player_name,
                          buildings)
    if board is None or not getattr(board, "tiles", None):
        return None
    return Places(board, lang, lambda key: app_word(key, lang), player_name, buildings, pieces)


def app_places(board=None) -> Places | None:
    """The running app's place words: of ``board`` (the board being entered), else of the open game."""
    from kivy.app import App

    a = App.get_running_app()
    if board is not None:
        return places_for(board, a.lang, a.player_name)
    game = a.table.game if a.table is not None else None
    if game is None:
        return None
    state = game.state
    return places_for(getattr(game, "board", None), a.lang, a.player_name,
                      getattr(state, "buildings", None), getattr(state, "pieces", None))


def app_describe(what: Any, board=None) -> str:
    """:func:`describe` for the running app: in its language, players named by ``app.player_name``, spots
    said as players say them (on ``board``, the board being entered, else the open game's)."""
    from kivy.app import App

    a = App.get_running_app()
    game = a.table.record.game if board is None and a.table is not None else None
    return describe(what, a.lang, a.player_name, app_places(board), game)


def app_refused_roll(roll, error) -> str:
    """The line for a roll the rules refuse, in the running app's language. A dice box or a camera rolls
    whenever the table throws the dice (at set-up, while the robber waits, twice in a turn), so its roll is
    named and said not counted ("The dice box rolled 3 + 6: not counted, the game is at set-up
    (settlements); ..."): a bare "Not allowed" took the set-up's prompt away for something nobody tapped."""
    from kivy.app import App

    a = App.get_running_app()
    why = app_describe(error)
    refusal = getattr(error, "refusal", None)
    if roll.source in ("box", "camera") and getattr(refusal, "code", None) == "wrong_phase":
        dice = " + ".join(map(str, sorted(roll.values)))
        return a.tr("roll_not_counted", source=a.tr(f"roll_source_{roll.source}"), dice=dice, why=why)
    return a.tr("illegal", why=why)

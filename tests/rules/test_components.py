"""The component data in data/ against the manifest (components.md), and its loader."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rules.components import (
    BLOCKS_PER_SIDE,
    ComponentDataError,
    Components,
    default_components,
    default_data_dir,
    load_components,
)
from rules.sides import Side

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA
DATA = Path(__file__).resolve().parents[2] / "data"


@pytest.fixture(scope="module")
def c() -> Components:
    return default_components()


def ids(items) -> set[str]:
    return {item.id for item in items}


# ---------------------------------------------------------------------------
# Locations


def test_51_locations_with_unique_ids(c):
    assert len(c.locations) == 51
    assert len(ids(c.locations)) == 51


def test_9_castles_gold_and_black(c):
    assert len(c.castles()) == 9
    assert ids(c.castles(ISHIDA)) == {"osaka", "gifu", "ueda", "aizu"}
    assert ids(c.castles(TOKUGAWA)) == {"miyazu", "kanazawa", "anotsu", "okazaki", "hakone"}


def test_9_resource_locations_including_the_capitals(c):
    assert ids(c.resource_locations()) == {
        "tsuruga", "kuwana", "kiso", "takeda", "niigata", "takasaki", "shirakawa", "kyoto", "edo",
    }
    capitals = {loc.id: loc.capital for loc in c.locations if loc.capital is not None}
    assert capitals == {"kyoto": ISHIDA, "edo": TOKUGAWA}


def test_7_recruitment_locations_gold_and_black(c):
    assert len(c.recruitment_locations()) == 7
    assert ids(c.recruitment_locations(ISHIDA)) == {"himeji", "osaka", "aizu"}
    assert ids(c.recruitment_locations(TOKUGAWA)) == {"kanazawa", "kiyosu", "sendai", "edo"}
    recruits = {loc.id: set(loc.recruitment) for loc in c.recruitment_locations()}
    assert recruits == {
        "himeji": {"ukita", "mori"},
        "osaka": {"kobayakawa"},
        "aizu": {"uesugi"},
        "kanazawa": {"maeda"},
        "kiyosu": {"fukushima"},
        "sendai": {"date"},
        "edo": {"tokugawa"},
    }
    assert c.location("himeji").is_recruitment and not c.location("ayabe").is_recruitment
    assert c.recruitment_side("kiyosu") is TOKUGAWA and c.recruitment_side("ayabe") is None


def test_locations_lie_on_the_map_sheet(c):
    assert all(0 < loc.x < 3354 and 0 < loc.y < 2115 for loc in c.locations)
    again = load_components().location("kyoto")  # a second load: another object, equal by value
    assert again is not c.location("kyoto") and again == c.location("kyoto")
    assert (c.location("kyoto").x, c.location("kyoto").y) == (733, 812)


# ---------------------------------------------------------------------------
# Connections


TOKAIDO = "kyoto minakuchi kuwana kiyosu okazaki hamamatsu sunpu numazu hakone edo".split()
NAKASENDO = "kyoto sawayama gifu iwamura kiso suwa saku takasaki oshi edo".split()


def test_62_connections_19_highways_43_roads(c):
    assert len(c.connections) == 62
    assert sum(conn.highway for conn in c.connections) == 19
    assert sum(not conn.highway for conn in c.connections) == 43


def test_highways_are_the_tokaido_the_nakasendo_and_osaka_kyoto(c):
    expected = {frozenset(pair) for road in (TOKAIDO, NAKASENDO) for pair in zip(road, road[1:])}
    expected.add(frozenset(("osaka", "kyoto")))
    assert {conn.key for conn in c.connections if conn.highway} == expected


def test_osaka_to_kuwana_is_3_highway_steps(c):
    assert c.distance("osaka", "kuwana", highways_only=True) == 3
    path = ["osaka", "kyoto", "minakuchi", "kuwana"]
    assert all(c.connection(a, b).highway for a, b in zip(path, path[1:]))


def test_osaka_to_edo_is_10_by_highway_and_no_shorter_by_any_route(c):
    assert c.distance("osaka", "edo", highways_only=True) == 10
    assert c.distance("osaka", "edo") == 10


def test_the_map_is_connected(c):
    assert all(c.distance("himeji", loc.id) is not None for loc in c.locations)


def test_no_location_has_more_than_4_connections(c):
    assert max(len(c.neighbours(loc.id)) for loc in c.locations) <= 4


def test_neighbours_are_sorted_and_connections_two_way(c):
    assert c.neighbours("kyoto") == ("ayabe", "minakuchi", "osaka", "sawayama")
    assert c.connection("kyoto", "osaka") is c.connection("osaka", "kyoto")
    assert c.connection("osaka", "edo") is None
    assert not c.connection("himeji", "osaka").highway


def test_distance_without_a_highway_route_is_none(c):
    assert c.distance("osaka", "himeji", highways_only=True) is None
    assert c.distance("osaka", "himeji") == 1


def test_unknown_ids_raise_key_error_naming_them(c):
    for lookup in (c.location, c.block, c.card, c.daimyo_of, c.block_index, c.neighbours):
        with pytest.raises(KeyError, match="nowhere"):
            lookup("nowhere")
    with pytest.raises(KeyError, match="nowhere"):
        c.distance("osaka", "nowhere")


# ---------------------------------------------------------------------------
# Daimyo and blocks


BLOCK_COUNTS = {  # daimyo: (leader, 3, 2, gun, cav, 4), components.md "Blocks" (reconstructed)
    "ishida": (1, 0, 0, 0, 0, 0),
    "mori": (1, 5, 3, 2, 3, 0),
    "kobayakawa": (1, 3, 4, 2, 3, 0),
    "ukita": (1, 3, 4, 3, 2, 0),
    "uesugi": (1, 3, 0, 2, 1, 0),
    "ii": (0, 0, 0, 0, 0, 1),
    "tokugawa": (1, 3, 5, 3, 3, 0),
    "fukushima": (1, 2, 4, 2, 2, 0),
    "maeda": (1, 2, 4, 2, 2, 0),
    "date": (1, 2, 3, 2, 2, 0),
}


def test_daimyo_table(c):
    table = {d.id: (d.side, d.has_cards) for d in c.daimyo}
    assert table == {
        "ishida": (ISHIDA, False),
        "mori": (ISHIDA, True),
        "ukita": (ISHIDA, True),
        "kobayakawa": (ISHIDA, True),
        "uesugi": (ISHIDA, True),
        "tokugawa": (TOKUGAWA, True),
        "fukushima": (TOKUGAWA, True),
        "maeda": (TOKUGAWA, True),
        "date": (TOKUGAWA, True),
        "ii": (TOKUGAWA, False),
    }
    assert c.daimyo_of("mori").side is ISHIDA


def test_48_blocks_a_side(c):
    assert len(c.blocks_of(ISHIDA)) == len(c.blocks_of(TOKUGAWA)) == BLOCKS_PER_SIDE == 48
    assert len(ids(c.blocks)) == 96


@pytest.mark.parametrize("daimyo", BLOCK_COUNTS)
def test_block_counts_per_daimyo(c, daimyo):
    kinds = [block.kind for block in c.blocks if block.daimyo == daimyo]
    counted = tuple(kinds.count(kind) for kind in ("leader", "3", "2", "gun", "cav", "4"))
    assert counted == BLOCK_COUNTS[daimyo]
    assert {block.side for block in c.blocks if block.daimyo == daimyo} == {c.daimyo_of(daimyo).side}


def test_block_ids_strength_and_symbols(c):
    assert c.block("mori-3-1").strength == 3
    assert c.block("mori-cav-1").symbol == "cav" and c.block("mori-cav-1").strength == 1
    assert c.block("tokugawa-gun-3").symbol == "gun"
    assert c.block("ukita-2-4").strength == 2 and c.block("ukita-2-4").symbol is None
    assert c.block("ii-4").strength == 4 and not c.block("ii-4").is_leader
    assert c.block("ishida-leader").is_leader and c.block("ishida-leader").strength == 1
    assert {block.id for block in c.blocks if block.any_card} == {"ishida-leader", "ii-4"}
    assert {block.id for block in c.blocks if block.is_leader} == {
        f"{d}-leader" for d in BLOCK_COUNTS if d != "ii"
    }


def test_blocks_are_ordered_by_side_daimyo_and_kind(c):
    order = [block.id for block in c.blocks]
    assert order[:3] == ["ishida-leader", "mori-leader", "mori-3-1"]
    assert all(block.side is ISHIDA for block in c.blocks[:48])
    assert order[-1] == "ii-4" and order[48] == "tokugawa-leader"
    assert all(c.blocks[c.block_index(id)].id == id for id in order)


# ---------------------------------------------------------------------------
# Cards


CARD_GROUPS = [  # deck, daimyo, (count, bid) for double, swords, plain
    (TOKUGAWA, "tokugawa", (1, 6), (5, 4), (10, 2)),
    (TOKUGAWA, "fukushima", (1, 6), (4, 4), (7, 2)),
    (TOKUGAWA, "maeda", (1, 6), (4, 4), (7, 2)),
    (TOKUGAWA, "date", (1, 6), (4, 4), (6, 2)),
    (ISHIDA, "mori", (1, 5), (5, 3), (10, 1)),
    (ISHIDA, "kobayakawa", (1, 5), (5, 3), (8, 1)),
    (ISHIDA, "ukita", (1, 5), (5, 3), (8, 1)),
    (ISHIDA, "uesugi", (1, 5), (3, 3), (4, 1)),
]


def test_55_cards_a_side(c):
    assert len(c.cards_of(ISHIDA)) == len(c.cards_of(TOKUGAWA)) == 55
    assert len(ids(c.cards)) == 110


@pytest.mark.parametrize("deck, daimyo, double, swords, plain", CARD_GROUPS)
def test_card_group_counts_and_bids(c, deck, daimyo, double, swords, plain):
    group = [card for card in c.cards if card.daimyo == daimyo]
    assert {card.side for card in group} == {deck}
    for kind, (count, bid) in (("double", double), ("swords", swords), ("plain", plain)):
        of_kind = [card for card in group if card.kind == kind]
        assert len(of_kind) == count
        assert {card.bid for card in of_kind} == {bid}


@pytest.mark.parametrize("side, count, bid", [(TOKUGAWA, 4, 8), (ISHIDA, 3, 7)])
def test_loyalty_challenge_cards(c, side, count, bid):
    loyalty = [card for card in c.cards_of(side) if card.is_loyalty]
    assert [card.id for card in loyalty] == [f"{side}-loyalty-{n}" for n in range(1, count + 1)]
    assert {(card.bid, card.daimyo) for card in loyalty} == {(bid, None)}


def test_6_3_tokugawa_bids_even_ishida_odd(c):
    assert all(card.bid % 2 == 0 for card in c.cards_of(TOKUGAWA))
    assert all(card.bid % 2 == 1 for card in c.cards_of(ISHIDA))


def test_card_ids(c):
    assert c.card("mori-double").is_double and c.card("mori-double").bid == 5
    assert c.card("tokugawa-swords-5").has_swords
    assert c.card("tokugawa-plain-10").kind == "plain"
    assert c.card("tokugawa-loyalty-2").side is TOKUGAWA
    assert not any(card.daimyo in ("ishida", "ii") for card in c.cards)


# ---------------------------------------------------------------------------
# Setup, discs, tracks


FIXED = {
    "osaka": ("ishida-leader", "kobayakawa-leader", "kobayakawa-3-1", "ukita-leader", "ukita-2-1", "mori-cav-1"),
    "aizu": ("uesugi-leader", "uesugi-3-1", "uesugi-gun-1"),
    "mori_box": ("mori-leader", "mori-3-1", "mori-3-2", "mori-3-3", "mori-3-4"),
    "edo": ("tokugawa-leader", "tokugawa-3-1", "tokugawa-3-2", "tokugawa-gun-1"),
    "kanazawa": ("maeda-leader", "maeda-2-1", "maeda-2-2", "maeda-gun-1"),
    "kiyosu": ("fukushima-leader", "fukushima-cav-1", "ii-4"),
    "sendai": ("date-leader", "date-2-1", "date-3-1"),
}


def test_5_2_fixed_setup_blocks(c):
    assert dict(c.setup.fixed) == FIXED
    assert c.setup.fixed_at("mori_box") == FIXED["mori_box"]
    assert c.setup.fixed_at("kyoto") == ()


def test_5_2_random_placements_in_order(c):
    assert c.setup.random_for(ISHIDA) == (("kyoto", 2), ("osaka", 2), ("gifu", 2), ("ueda", 3), ("aizu", 1))
    assert c.setup.random_for(TOKUGAWA) == (
        ("miyazu", 1), ("kanazawa", 1), ("anotsu", 1), ("kiyosu", 1), ("sendai", 1), ("hakone", 1), ("edo", 2),
    )


@pytest.mark.parametrize("side, fixed, placed, bag", [(ISHIDA, 14, 10, 20), (TOKUGAWA, 14, 8, 22)])
def test_5_2_setup_arithmetic(c, side, fixed, placed, bag):
    fixed_here = [block for place in FIXED.values() for block in place if c.block(block).side is side]
    placed_here = sum(count for _, count in c.setup.random_for(side))
    assert (len(fixed_here), placed_here, c.setup.recruitment_draws) == (fixed, placed, 4)
    assert len(c.blocks_of(side)) - fixed - placed - c.setup.recruitment_draws == bag


def test_start_of_game_numbers(c):
    assert c.setup.hand_size == 5
    assert dict(c.setup.start_control) == {"kyoto": ISHIDA, "edo": TOKUGAWA}
    assert c.setup.weeks == 7
    assert c.setup.reinforcement == (0, 2, 2, 2, 1, 1, 1)
    assert [c.setup.reinforcements_in(week) for week in (1, 4, 5)] == [0, 2, 1]


def test_two_discs_in_their_castles(c):
    assert {(d.id, d.side, d.location) for d in c.discs} == {
        ("hideyori", ISHIDA, "osaka"),
        ("sanada", ISHIDA, "ueda"),
    }
    assert all(c.location(d.location).is_castle for d in c.discs)


# ---------------------------------------------------------------------------
# Loading and data_version


def test_the_checkout_data_is_found_without_installing():
    assert (default_data_dir() / "map.toml").is_file()
    assert load_components(str(DATA)) == default_components()


def test_data_version_is_stable_across_loads(c):
    assert len(c.data_version) == 12 and int(c.data_version, 16) >= 0
    assert load_components(DATA).data_version == load_components().data_version == c.data_version


def test_data_version_changes_when_a_count_is_edited(data, c):
    edit(data / "blocks.toml", 'id = "mori"', '"3" = 5', '"3" = 4')
    edit(data / "blocks.toml", 'id = "mori"', '"2" = 3', '"2" = 4')
    edited = load_components(data)
    assert len(edited.blocks_of(ISHIDA)) == 48
    assert edited.data_version != c.data_version


# ---------------------------------------------------------------------------
# Broken data: each problem names the file and the offending entry


@pytest.fixture
def data(tmp_path) -> Path:
    """A writable copy of the data directory."""
    return Path(shutil.copytree(DATA, tmp_path / "data"))


def edit(path: Path, anchor: str, old: str, new: str) -> None:
    """Replace the first `old` after `anchor` in the file."""
    text = path.read_text()
    start = text.index(anchor)
    at = text.index(old, start)
    path.write_text(text[:at] + new + text[at + len(old):])


def append(path: Path, text: str) -> None:
    path.write_text(path.read_text() + "\n" + text + "\n")


def connection(a: str, b: str, highway: str = "false") -> str:
    return f'[[connections]]\na = "{a}"\nb = "{b}"\nhighway = {highway}\n'


def expect_error(data: Path, message: str) -> ComponentDataError:
    with pytest.raises(ComponentDataError) as caught:
        load_components(data)
    assert str(caught.value) == message
    return caught.value


def test_road_to_an_unknown_location(data):
    edit(data / "map.toml", 'a = "kyoto"', 'b = "minakuchi"', 'b = "nowhere"')
    error = expect_error(data, "map.toml: connection kyoto-nowhere: unknown location 'nowhere'")
    assert (error.file, error.entry) == ("map.toml", "connection kyoto-nowhere")


def test_duplicate_connection(data):
    append(data / "map.toml", connection("kyoto", "osaka", "true"))
    expect_error(data, "map.toml: connection kyoto-osaka: duplicate of connection osaka-kyoto")


def test_self_loop(data):
    append(data / "map.toml", connection("kyoto", "kyoto"))
    expect_error(data, "map.toml: connection kyoto-kyoto: connects a location to itself")


def test_more_than_4_connections(data):
    append(data / "map.toml", connection("kyoto", "wakayama"))
    expect_error(data, "map.toml: location kyoto: 5 connections, at most 4")


def test_map_not_connected(data):
    append(data / "map.toml", '[[locations]]\nid = "island"\nname = "Island"\nx = 10\ny = 10\n')
    expect_error(data, "map.toml: location island: cannot be reached from himeji")


def test_duplicate_location(data):
    append(data / "map.toml", '[[locations]]\nid = "kyoto"\nname = "Kyoto again"\nx = 10\ny = 10\n')
    expect_error(data, "map.toml: location kyoto: duplicate location id")


def test_recruitment_daimyo_unknown(data):
    edit(data / "map.toml", 'id = "osaka"', '["kobayakawa"]', '["kobayakawa", "shimazu"]')
    expect_error(data, "map.toml: location osaka: unknown recruitment daimyo 'shimazu'")


def test_recruitment_daimyo_of_the_wrong_side(data):
    edit(data / "map.toml", 'id = "osaka"', '["kobayakawa"]', '["maeda"]')
    expect_error(data, "map.toml: location osaka: recruitment of tokugawa daimyo in a gold castle")


def test_recruitment_daimyo_of_both_sides(data):
    edit(data / "map.toml", 'id = "himeji"', '["ukita", "mori"]', '["ukita", "date"]')
    expect_error(data, "map.toml: location himeji: recruitment daimyo of both sides")


def test_wrong_type(data):
    edit(data / "map.toml", 'id = "himeji"', "x = 368", 'x = "368"')
    expect_error(data, "map.toml: location himeji: x: expected integer, got string '368'")


def test_string_where_a_list_belongs(data):
    edit(data / "map.toml", 'id = "osaka"', '["kobayakawa"]', '"kobayakawa"')
    expect_error(data, "map.toml: location osaka: recruitment: expected array, got string 'kobayakawa'")


def test_unknown_key(data):
    edit(data / "map.toml", 'id = "ayabe"', 'name = "Ayabe"', 'name = "Ayabe"\ncolour = "red"')
    expect_error(data, "map.toml: location ayabe: unknown key 'colour'")


def test_unknown_colour(data):
    edit(data / "map.toml", 'id = "miyazu"', 'castle = "black"', 'castle = "red"')
    expect_error(data, "map.toml: location miyazu: castle: expected one of 'gold', 'black', got 'red'")


def test_missing_key(data):
    edit(data / "map.toml", 'id = "ayabe"', 'name = "Ayabe"\n', "")
    expect_error(data, "map.toml: location ayabe: name: missing")


def test_malformed_toml(data):
    edit(data / "setup.toml", "hand_size", "hand_size = 5", "hand_size = 5 5")
    error = expect_error_startswith(data, "setup.toml: malformed TOML: ")
    assert "line 5" in str(error)


def expect_error_startswith(data: Path, prefix: str) -> ComponentDataError:
    with pytest.raises(ComponentDataError) as caught:
        load_components(data)
    assert str(caught.value).startswith(prefix)
    return caught.value


def test_missing_file(data):
    (data / "cards.toml").unlink()
    expect_error_startswith(data, "cards.toml: cannot read")


def test_duplicated_daimyo_section(data):
    text = (data / "blocks.toml").read_text()
    start = text.index('[[daimyo]]\nid = "mori"')
    end = text.index("[[daimyo]]", start + 1)
    append(data / "blocks.toml", text[start:end])
    expect_error(data, "blocks.toml: daimyo mori: duplicate daimyo id")


def test_a_count_too_many_gives_49_blocks(data):
    edit(data / "blocks.toml", 'id = "mori"', '"3" = 5', '"3" = 6')
    expect_error(data, "blocks.toml: side ishida: 49 blocks, expected 48")


def test_a_count_too_few_gives_47_blocks(data):
    edit(data / "blocks.toml", 'id = "date"', "gun = 2", "gun = 1")
    expect_error(data, "blocks.toml: side tokugawa: 47 blocks, expected 48")


def test_a_second_leader_duplicates_a_block_id(data):
    edit(data / "blocks.toml", 'id = "ukita"', "leader = 1", "leader = 2")
    expect_error(data, "blocks.toml: daimyo ukita: leader = 2: duplicate block id 'ukita-leader' (at most 1)")


def test_unknown_block_kind(data):
    edit(data / "blocks.toml", 'id = "mori"', '"3" = 5', '"5" = 5')
    expect_error(
        data, "blocks.toml: daimyo mori: blocks.5: expected one of 'leader', '4', '3', '2', 'gun', 'cav', got '5'"
    )


def test_fixed_setup_block_that_does_not_exist(data):
    edit(data / "setup.toml", "osaka = [", '"mori-cav-1"', '"mori-cav-9"')
    expect_error(data, "setup.toml: fixed osaka: unknown block 'mori-cav-9'")


def test_fixed_setup_block_listed_twice(data):
    edit(data / "setup.toml", "sendai = [", '"date-3-1"]', '"date-3-1", "ii-4"]')
    expect_error(data, "setup.toml: fixed sendai: block 'ii-4' is already set up at kiyosu")


def test_random_placement_at_an_unknown_location(data):
    edit(data / "setup.toml", "[random.tokugawa]", "hakone = 1", "nowhere = 1")
    expect_error(data, "setup.toml: random tokugawa: unknown location 'nowhere'")


def test_disc_outside_a_castle(data):
    edit(data / "setup.toml", 'id = "sanada"', 'location = "ueda"', 'location = "kyoto"')
    expect_error(data, "setup.toml: disc sanada: kyoto is not a castle")


def test_reinforcement_track_must_cover_every_week(data):
    edit(data / "setup.toml", "[reinforcement]", "7 = 1", "8 = 1")
    expect_error(data, "setup.toml: reinforcement: weeks 1, 2, 3, 4, 5, 6, 8: expected 1 to 7")


def test_card_group_for_an_unknown_daimyo(data):
    edit(data / "cards.toml", "[[groups]]", 'daimyo = "tokugawa"', 'daimyo = "shimazu"')
    expect_error(data, "cards.toml: group shimazu: unknown daimyo 'shimazu'")


def test_card_group_for_a_daimyo_of_the_other_side(data):
    edit(data / "cards.toml", 'deck = "tokugawa"', 'daimyo = "date"', 'daimyo = "mori"')
    expect_error(data, "cards.toml: group mori: mori is on the ishida side, not tokugawa")


def test_6_3_tokugawa_bid_must_be_even(data):
    edit(data / "cards.toml", "[[loyalty]]", "bid = 8", "bid = 9")
    expect_error(data, "cards.toml: loyalty tokugawa: loyalty bid 9: tokugawa bids must be even (6.3)")


def test_6_3_ishida_bid_must_be_odd(data):
    edit(data / "cards.toml", 'daimyo = "uesugi"', "swords = { count = 3, bid = 3 }", "swords = { count = 3, bid = 4 }")
    expect_error(data, "cards.toml: group uesugi: swords bid 4: ishida bids must be odd (6.3)")

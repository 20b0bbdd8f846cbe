"""The agents' random streams reveal nothing (issue 43): the attack, done as a hand-in would do it.

An agent holds its own ``random.Random``; a Mersenne Twister's state gives
back the key ``init_by_array`` was seeded with.  Under the old string seeding
(version 1) that key is ``"pacsim:{seed}:{agent}"``: the game's seed, and with
it every ghost's dice.  Under the hashed seeding (version 2) it is a keyed
hash, which says nothing about the other streams.
"""

import hashlib
import random

import pytest

from pacsim.agents import Agent, make_ghost
from pacsim.engine import load_layout, play_game
from pacsim.engine.game import agent_rng
from pacsim.engine.recording import game_from_dict, game_to_dict
from pacsim.engine.streams import HASHED_STREAMS, STRING_STREAMS, Streams, streams_of
from pacsim.errors import ReplayError

N = 624
MASK = 0xFFFFFFFF
TOURNAMENT_KEY = bytes(range(32))
SEED = 123_456_789


def _genrand_start(seed: int = 19650218) -> list[int]:
    """CPython's ``init_genrand(19650218)``, where ``init_by_array`` starts."""
    words = [seed]
    for index in range(1, N):
        words.append((1812433253 * (words[-1] ^ (words[-1] >> 30)) + index) & MASK)
    return words


def _mix(word: int, factor: int) -> int:
    return ((word ^ (word >> 30)) * factor) & MASK


def seeding_key(rng: random.Random) -> list[int]:
    """The 32-bit words a fresh generator was seeded with, read back from its
    state by undoing CPython's ``init_by_array`` (a key shorter than 620 words)."""
    final = rng.getstate()[1][:N]
    after_first = [0] * N  # the state between init_by_array's two loops
    after_first[1] = ((final[1] + 1) & MASK) ^ _mix(final[N - 1], 1566083941)
    after_first[2] = ((final[2] + 2) & MASK) ^ _mix(after_first[1], 1566083941)
    for index in range(3, N):
        after_first[index] = ((final[index] + index) & MASK) ^ _mix(final[index - 1], 1566083941)
    start = _genrand_start()
    mixed = {index - 1: (after_first[index] - (start[index] ^ _mix(after_first[index - 1], 1664525))) & MASK
             for index in range(3, N)}  # key word j plus j, for j = index - 1 (mod the key's length)
    for length in range(1, N - 4):
        words = {position: (value - position % length) & MASK for position, value in mixed.items()}
        if all(words[position] == words[position + length] for position in words if position + length in words):
            return [next(words[position] for position in sorted(words) if position % length == j)
                    for j in range(length)]
    raise AssertionError("no key length fits the state")


def seeding_material(rng: random.Random) -> int:
    """What seeded the generator, as the integer ``random.seed`` made of it."""
    return sum(word << (32 * index) for index, word in enumerate(seeding_key(rng)))


def recovered_seed(rng: random.Random) -> int | None:
    """The game's seed, if the generator was seeded with pacsim's version-1 string; else None."""
    material = seeding_material(rng)
    raw = material.to_bytes((material.bit_length() + 7) // 8, "big")
    text, digest = raw[:-64], raw[-64:]  # random.seed(str): the text and its SHA-512
    if hashlib.sha512(text).digest() != digest:
        return None
    parts = text.decode().split(":")
    return int(parts[1]) if len(parts) == 3 and parts[0] == "pacsim" else None


class DiceReader(Agent):
    """A hostile Pacman: reads its generator's seeding material at the start of the game, then plays the first legal move."""

    def reset(self, index, rng):
        super().reset(index, rng)
        self.material = seeding_material(rng)
        self.seed = recovered_seed(rng)

    def get_action(self, state):
        return state.legal_actions()[0]


def _predictions(record, layout, shadow: Agent) -> list[tuple[str, str, int]]:
    """At each of ghost 1's turns in the recorded game: (predicted, played, legal moves), ``shadow`` predicting."""
    from pacsim.engine.state import initial_state

    state, rows = initial_state(layout, record.num_ghosts), []
    for action in record.actions:
        if state.turn == 1:
            rows.append((shadow.get_action(state), action, len(state.legal_actions())))
        state = state.successor(action)
    return rows


def _play(streams: Streams):
    layout = load_layout("smallClassic")
    reader = DiceReader()
    record = play_game(layout, [reader, make_ghost("random"), make_ghost("random")], seed=SEED, max_moves=60,
                       streams=streams)
    return layout, reader, record


def test_the_inversion_reads_back_any_seeding_key():
    key = [random.Random(7).getrandbits(32) for _ in range(19)]
    generator = random.Random()
    generator.seed(sum(word << (32 * index) for index, word in enumerate(key)))
    assert seeding_key(generator) == key


def test_old_streams_give_the_seed_and_every_ghosts_next_move():
    layout, reader, record = _play(Streams(STRING_STREAMS))
    assert reader.seed == SEED  # read from its own generator
    shadow = make_ghost("random")
    shadow.reset(1, agent_rng(reader.seed, 1, Streams(STRING_STREAMS)))
    rows = _predictions(record, layout, shadow)
    decisions = [row for row in rows if row[2] > 1]
    assert len(decisions) >= 10 and all(predicted == played for predicted, played, _ in rows)


@pytest.mark.parametrize("key", [b"", TOURNAMENT_KEY], ids=["unkeyed", "tournament"])
def test_hashed_streams_give_back_only_their_own_hash(key):
    streams = Streams(HASHED_STREAMS, key)
    _, reader, _ = _play(streams)
    assert reader.seed is None
    assert reader.material == streams.stream_seed(SEED, 0)  # the attack worked: it found the hash, and only that
    assert reader.material.bit_length() <= 256 and str(SEED).encode() not in reader.material.to_bytes(32, "big")


def test_with_the_tournament_key_even_the_seed_does_not_predict_the_ghosts():
    """Grant the attacker the game's seed (it cannot read it) and the public hash: without the key, a random ghost's moves stay dice."""
    layout, reader, record = _play(Streams(HASHED_STREAMS, TOURNAMENT_KEY))
    guesses = {"public hash of the true seed": agent_rng(SEED, 1, Streams(HASHED_STREAMS)),
               "old string of the true seed": agent_rng(SEED, 1, Streams(STRING_STREAMS)),
               "its own generator's hash as a seed": random.Random(reader.material)}
    for name, rng in guesses.items():
        shadow = make_ghost("random")
        shadow.reset(1, rng)
        decisions = [(predicted, played) for predicted, played, legal in _predictions(record, layout, shadow) if legal > 1]
        wrong = sum(predicted != played for predicted, played in decisions)
        assert len(decisions) >= 10 and wrong >= len(decisions) // 5, name  # all right by chance: under 2**-10


def test_streams_differ_by_agent_seed_and_key_and_keep_the_key_out_of_sight():
    public, keyed = Streams(), Streams(key=TOURNAMENT_KEY)
    seeds = {public.stream_seed(1, 0), public.stream_seed(1, 1), public.stream_seed(2, 0), keyed.stream_seed(1, 0)}
    assert len(seeds) == 4
    assert TOURNAMENT_KEY.hex() not in repr(keyed) and repr(TOURNAMENT_KEY) not in repr(keyed)
    assert agent_rng(5, 1, Streams(STRING_STREAMS)).random() == random.Random("pacsim:5:1").random()  # old games replay
    with pytest.raises(ValueError):
        Streams(3)


def test_records_say_their_streams_and_old_records_read_as_version_one():
    layout, _, record = _play(Streams())
    data = game_to_dict(record, layout, "reader", ["random", "random"])
    assert data["streams"] == HASHED_STREAMS and game_from_dict(data).streams == HASHED_STREAMS
    del data["streams"]  # a record from before streams were versioned
    assert game_from_dict(data).streams == STRING_STREAMS and streams_of(None).version == STRING_STREAMS
    data["streams"] = 9
    with pytest.raises(ReplayError, match="random stream version 9"):
        game_from_dict(data, "old.json")


# -- where the streams are chosen: a run, a resumed store, a tournament ------------------

def test_a_tournament_draws_a_secret_key_keeps_it_beside_the_store_and_refuses_old_streams(tmp_path):
    import sqlite3

    from pacsim.errors import ConfigError
    from pacsim.runner import load_results, load_saved_game, run_experiment
    from pacsim.runner.tournament import build_tournament, drawn_path, save_drawn

    settings = {"pacman": ["greedy"], "ghosts": ["random"], "layouts": ["tinyGhostMaze"], "pairs": 2,
                "store": str(tmp_path / "contest.sqlite"), "seed": 5}
    tournament = build_tournament(settings, sandboxed=False)
    key = tournament.experiment.streams.key
    assert len(key) == 32 and tournament.experiment.streams.version == HASHED_STREAMS
    save_drawn(tournament)
    result = run_experiment(tournament.experiment, workers=1, quiet=True)
    assert set(load_results(result.store)["streams"]) == {HASHED_STREAMS}
    assert key.hex() in drawn_path(result.store).read_text()
    assert drawn_path(result.store).stat().st_mode & 0o077 == 0  # readable by its owner only
    assert key.hex().encode() not in result.store.read_bytes() and key not in result.store.read_bytes()
    again = build_tournament(settings, sandboxed=False)
    assert again.experiment.streams.key == key  # a resumed tournament keeps its dice
    other = build_tournament({**settings, "store": str(tmp_path / "other.sqlite")}, sandboxed=False)
    assert other.experiment.streams.key != key  # drawn afresh for each store, whatever the root seed

    with sqlite3.connect(result.store) as connection:  # as a store from before streams were versioned holds them
        connection.execute("UPDATE games SET streams = NULL")
        connection.execute("DELETE FROM games WHERE game_index = 1")
    connection.close()
    with pytest.raises(ConfigError, match="version-1 random streams, which an entrant can read") as refused:
        run_experiment(again.experiment, workers=1, quiet=True)
    assert "\n" not in str(refused.value)
    kept = int(load_results(result.store)["id"].min())  # a game left in the store
    assert load_saved_game(result.store, kept).streams == STRING_STREAMS
    with sqlite3.connect(result.store) as connection:
        connection.execute("UPDATE games SET streams = 7")
    connection.close()
    with pytest.raises(ReplayError, match=f"game {kept}: random stream version 7 is not one"):
        load_saved_game(result.store, kept)


def test_a_run_never_mixes_stream_versions(tmp_path):
    from pacsim.errors import ConfigError
    from pacsim.runner import load_experiment
    from pacsim.runner.execute import resumed_streams

    path = tmp_path / "exp.toml"
    path.write_text(f'name = "mix"\ngames = 1\nstore = "{tmp_path / "r.sqlite"}"\n[grid]\npacman = ["greedy"]\n'
                    'ghosts = ["random"]\nlayout = ["tinyGhostMaze"]\n', encoding="utf-8")
    experiment = load_experiment(path)
    assert resumed_streams(experiment, set()) == Streams()  # a new run: the current streams
    assert resumed_streams(experiment, {HASHED_STREAMS}) == Streams()
    assert resumed_streams(experiment, {STRING_STREAMS}) == Streams(STRING_STREAMS)  # an old run goes on as it began
    with pytest.raises(ConfigError, match="random stream versions 1 and 2"):
        resumed_streams(experiment, {STRING_STREAMS, HASHED_STREAMS})

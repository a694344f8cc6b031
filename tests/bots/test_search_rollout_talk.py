"""The search's rollouts keep every seat's talk memory as the table's heuristic bots do:
`witness` (on the engine's events) must remember what `Talk.observe` (on a seat's event
data) remembers, and a rollout must never write into the bot's own memory."""

from game.bots import make_bot
from game.bots.search import rollout_talks, witness
from game.bots.talk import Talk
from game.rules import Game, Offer, Settings
from game.table.simulate import play


def _memory(t: Talk) -> tuple:
    return (
        {k: list(v) for k, v in t.said.items()},
        t.table_words,
        t.new_bosses,
        t.fee_asked,
    )


def _compare_along_a_game(seed: int, seats: int = 4) -> tuple[int, int]:
    """Check a witnessed mirror of every seat's talk against the bot's own before each of
    its decisions; return (decisions checked, of them with terms remembered)."""
    bots = [make_bot("heuristic", i, seed) for i in range(seats)]
    mirrors = [Talk(i) for i in range(seats)]
    checked = talked = 0

    def wrap(b):
        orig = b.choose

        def choose(view, legal, must_act=True):
            nonlocal checked, talked
            assert _memory(mirrors[b.seat]) == _memory(b.talk)
            checked += 1
            talked += bool(b.talk.said)
            a = orig(view, legal, must_act)
            mirrors[b.seat].unsaid = b.talk.unsaid  # what the bot means to say
            return a

        b.choose = choose

    for b in bots:
        wrap(b)
    game = Game([f"P{i}" for i in range(seats)], seed, Settings(players=seats))
    play(game, bots, on_step=lambda _g, _a, events: witness(mirrors, events))
    return checked, talked


def test_witness_remembers_what_the_bots_at_the_table_remember():
    for seed in (3, 8):
        checked, talked = _compare_along_a_game(seed)
        assert checked > 100 and talked > 10  # terms were said and remembered


def test_rollout_talks_copy_my_memory_and_give_the_others_the_table_counters():
    own = Talk(1)
    own.record(0, (), 7)
    own.table_words, own.new_bosses, own.fee_asked = 5, 1, True
    own.intend(0, (), 9, True)
    talks = rollout_talks(own, 4, Offer(1, (), 9), True, 0)
    assert [t.seat for t in talks] == [0, 1, 2, 3]
    mine = talks[1]
    assert mine.amounts(0, ()) == ([7], [7]) and mine.unsaid == own.unsaid
    mine.record(0, (), 9)
    assert own.amounts(0, ()) == ([7], [7])  # a rollout never writes into my memory
    for t in (talks[0], talks[2], talks[3]):
        assert (t.table_words, t.new_bosses, t.fee_asked) == (5, 1, True)
        assert not t.said and t.unsaid is None
    # Another move than the heuristic's: it is remembered as said once the game reports it.
    other = rollout_talks(own, 4, Offer(1, (), 12), False, 0)[1]
    assert other.unsaid == (0, (), 12, False)

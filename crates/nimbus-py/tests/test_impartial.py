"""Impartial games from Python: expressions, and games written as Python functions that must
agree with the built-in rulesets (subtraction {1,3,4}, Kayles as take-and-break)."""

import os
import pickle
import struct
import zlib

import pytest

import nimbus


def subtraction(n):
    return [n - k for k in (1, 3, 4) if k <= n]


def kayles_moves(n):
    # Knock down one pin or two adjacent ones, leaving a row on each side.
    return [(a, n - k - a) for k in (1, 2) for a in range(n - k + 1) if a <= n - k - a]


def test_expressions():
    a = nimbus.sg("kayles 7 + nim 3 4")
    assert a.outcome == "N" and a.grundy == 2 ^ 3 ^ 4
    assert a.winning_moves and all(nimbus.sg(m.result).outcome == "P" for m in a.winning_moves)
    assert nimbus.sg("nim 1 1 1", misere=True).outcome == "P"
    assert nimbus.sg("nim 1 1 1", misere=True).rule == "anti-nim"
    # Without upto: run until the period is proved or a limit stops it, and say which.
    k = nimbus.sequence("kayles")
    assert (k.preperiod, k.period, k.proved, len(k.values)) == (71, 12, True, 101)
    t = nimbus.sequence("octal 0.007", max_work=10**8)
    assert not t.proved and "raise max_work" in t.notes[0] and "prove" in t.notes[0]
    s = nimbus.sequence("octal 0.137", upto=200)
    assert (s.preperiod, s.period, s.proved) == (52, 34, True)
    p = nimbus.sequence("octal 0.165", upto=10, prove=True)
    assert (p.preperiod, p.period, p.proved) == (5181, 1550, True)
    full = nimbus.sequence("octal 0.165", upto=p.checked_upto).values
    packed = struct.pack("<%dQ" % len(full), *full)
    assert "%08x" % zlib.crc32(packed) == p.checksum
    assert pickle.loads(pickle.dumps(a)) == a
    assert "<table>" in a._repr_html_()


def test_a_stopped_proof_resumes_from_its_checkpoint(tmp_path):
    path = str(tmp_path / "0.165.ckpt")
    with pytest.raises(nimbus.LimitError, match=r"\(raise max_work\)"):
        nimbus.sequence("octal 0.165", upto=10, prove=True, checkpoint=path, max_work=1000)
    assert os.path.getsize(path) > 2 * 4096
    p = nimbus.sequence("octal 0.165", upto=10, prove=True, checkpoint=path)
    assert (p.preperiod, p.period, p.proved) == (5181, 1550, True)


def test_subtraction_game_as_a_python_function():
    game = nimbus.impartial(subtraction, name="sub134")
    builtin = nimbus.sequence("subtract{1,3,4}", upto=60).values
    for n in range(61):
        a = nimbus.sg(game, n)
        assert a.grundy == builtin[n]
        assert a.outcome == nimbus.sg(f"subtract{{1,3,4}} {n}").outcome
    assert nimbus.sg(game, 5, 9).grundy == builtin[5] ^ builtin[9]
    assert nimbus.sg(game, 7, misere=True).outcome == nimbus.sg("subtract{1,3,4} 7", misere=True).outcome
    heap = nimbus.heap_game(lambda n: [n - k for k in (1, 3, 4) if k <= n])
    assert nimbus.sequence(heap, upto=300).values == nimbus.sequence("subtract{1,3,4}", upto=300).values


def test_kayles_as_take_and_break():
    kayles = nimbus.heap_game(kayles_moves, name="kayles.py")
    ours = nimbus.sequence(kayles, upto=200)
    assert ours.values == nimbus.sequence("kayles", upto=200).values
    assert (ours.preperiod, ours.period) == (71, 12)
    assert nimbus.sg(kayles, 3, 4, 9).grundy == nimbus.sg("kayles 3 4 9").grundy
    for heaps in ([4, 5], [1, 1, 2], [7]):
        want = nimbus.sg("kayles " + " ".join(map(str, heaps)), misere=True).outcome
        assert nimbus.sg(kayles, *heaps, misere=True).outcome == want
    misere = nimbus.sequence(kayles, upto=12, misere=True).values
    assert misere == nimbus.sequence("kayles", upto=12, misere=True).values


def test_cycles_agree_with_a_graph_file(root):
    edges = {}
    for line in (root / "examples/loopy.txt").read_text().splitlines():
        line = line.split("#")[0].split()
        if len(line) == 2:
            edges.setdefault(line[0], []).append(line[1])
            edges.setdefault(line[1], [])
    game = nimbus.impartial(lambda p: edges[p])
    for node in edges:
        ours = nimbus.sg(game, node)
        theirs = nimbus.sg(f"graph {root / 'examples/loopy.txt'} @{node}")
        assert (ours.outcome, ours.get("gamma")) == (theirs.outcome, theirs.get("gamma")), node


def test_callback_errors_reach_python():
    def broken(p):
        if p == 3:
            raise RuntimeError("no moves from 3")
        return [p - 1] if p else []

    with pytest.raises(RuntimeError, match="no moves from 3"):
        nimbus.sg(nimbus.impartial(broken), 5)
    with pytest.raises(ValueError, match="hashable"):
        nimbus.sg(nimbus.impartial(lambda p: [[1]] if p else []), 1)
    with pytest.raises(ValueError, match="smaller in all"):
        nimbus.sequence(nimbus.heap_game(lambda n: [n]), upto=3)


def test_limits_are_limit_errors():
    with pytest.raises(nimbus.LimitError, match=r"\(raise max_work\)"):
        nimbus.sequence("grundy-game", upto=902149, max_work=1000000)
    with pytest.raises(nimbus.LimitError):
        nimbus.sg(nimbus.impartial(lambda n: [n + 1]), 0, max_states=1000)
    assert issubclass(nimbus.LimitError, ValueError)


def test_a_misere_rule_whose_precondition_fails_is_refused(root):
    a = nimbus.sg(f"graph {root / 'examples/seed-antisg.txt'} @1", misere=True, rule="sj")
    assert a.refused and a.counterexample.truth == "P"
    with pytest.raises(ValueError, match="rule 'magic'"):
        nimbus.sg("nim 1", misere=True, rule="magic")


def test_misere_quotient_multiplies_out_positions():
    q = nimbus.misere_quotient("octal 0.75", upto=20, positions=[(5, 7, 9), (1,)])
    assert q.order == 8 and sorted(q.p_portion) == ["a", "b^2"]
    assert [g["heap"] for g in q.generators] == [1, 2, 5]
    first, second = q.positions
    assert (first.outcome, second.outcome) == ("N", "P")
    # The product of the heaps' elements, by the table, is the position's element.
    index = {e: i for i, e in enumerate(q.elements)}
    x = 0
    for h in (5, 7, 9):
        x = q.table[x][index[q.pretending[h]]]
    assert q.elements[x] == first.element
    with pytest.raises(ValueError, match="upto"):
        nimbus.misere_quotient("kayles", upto=0)


def test_misere_quotient_says_when_every_heap_is_proved():
    # 0.75: period 2 from heap 8; the Guy-Smith horizon 2(8 + 2) + 2 - 1 is heap 21.
    assert nimbus.misere_quotient("octal 0.75", upto=20).forever is None
    f = nimbus.misere_quotient("octal 0.75", upto=21).forever
    assert (f["preperiod"], f["period"]) == (8, 2)

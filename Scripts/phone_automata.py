"""Digit automata for libphonenumber's patterns: a regular expression over the digits 0-9 becomes
a minimal DFA, and a prefix pattern with capture groups (international and national prefixes)
becomes an ordered list of alternatives, each a sequence of DFA segments, so that nothing parses
a regular expression at run time. Used by generate-phone-metadata.py; no third-party imports."""

import re
import re._constants as C
import re._parser as P

DIGITS = range(10)
DEAD = -1


class NFA:
    def __init__(self):
        self.eps = []  # state -> list of states
        self.edges = []  # state -> list of (digit set, state)

    def state(self):
        self.eps.append([])
        self.edges.append([])
        return len(self.eps) - 1


def digit_set(op, av):
    """The digits one LITERAL or IN node accepts."""
    if op == C.LITERAL:
        c = chr(av)
        if not c.isdigit():
            raise ValueError(f"non-digit literal {c!r}")
        return frozenset([int(c)])
    if op == C.IN:
        result, negate = set(), False
        for item_op, item in av:
            if item_op == C.LITERAL:
                result |= {int(chr(item))} if chr(item).isdigit() else set()
            elif item_op == C.RANGE:
                low, high = item
                result |= {d for d in DIGITS if low <= ord(str(d)) <= high}
            elif item_op == C.CATEGORY and item == C.CATEGORY_DIGIT:
                result |= set(DIGITS)
            elif item_op == C.NEGATE:
                negate = True
            else:
                raise ValueError(f"unsupported class item {item_op}")
        return frozenset(set(DIGITS) - result if negate else result)
    if op == C.CATEGORY and av == C.CATEGORY_DIGIT:
        return frozenset(DIGITS)
    raise ValueError(f"not a digit class: {op}")


def build(nfa, nodes, start):
    """Adds `nodes` (a parsed sequence) to `nfa` from `start`; returns the end state."""
    current = start
    for op, av in nodes:
        current = build_node(nfa, op, av, current)
    return current


def build_node(nfa, op, av, start):
    if op in (C.LITERAL, C.IN, C.CATEGORY):
        end = nfa.state()
        nfa.edges[start].append((digit_set(op, av), end))
        return end
    if op == C.SUBPATTERN:
        return build(nfa, av[3], start)
    if op == C.BRANCH:
        end = nfa.state()
        for branch in av[1]:
            branch_start = nfa.state()
            nfa.eps[start].append(branch_start)
            nfa.eps[build(nfa, branch, branch_start)].append(end)
        return end
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
        low, high, sub = av
        current = start
        for _ in range(low):
            current = build(nfa, sub, current)
        if high == C.MAXREPEAT:
            loop = nfa.state()
            nfa.eps[current].append(loop)
            nfa.eps[build(nfa, sub, loop)].append(loop)
            return loop
        end = nfa.state()
        for _ in range(high - low):
            nfa.eps[current].append(end)
            current = build(nfa, sub, current)
        nfa.eps[current].append(end)
        return end
    raise ValueError(f"unsupported pattern node {op}")


def closure(nfa, states):
    stack, seen = list(states), set(states)
    while stack:
        for nxt in nfa.eps[stack.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return frozenset(seen)


class DFA:
    """A complete DFA over digits: `rows[s][d]` is the next state or DEAD; state 0 starts."""

    def __init__(self, rows, accepting):
        self.rows, self.accepting = rows, accepting

    def fullmatch(self, digits):
        state = 0
        for ch in digits:
            state = self.rows[state][ord(ch) - 48]
            if state == DEAD:
                return False
        return state in self.accepting

    def match_ends(self, digits, position):
        """Every end at which a match starting at `position` stops, longest first."""
        ends, state = [], 0
        if 0 in self.accepting:
            ends.append(position)
        for index in range(position, len(digits)):
            state = self.rows[state][ord(digits[index]) - 48]
            if state == DEAD:
                break
            if state in self.accepting:
                ends.append(index + 1)
        return ends[::-1]


def dfa_from_nodes(nodes):
    nfa = NFA()
    start = nfa.state()
    end = build(nfa, nodes, start)
    first = closure(nfa, [start])
    index, rows, accepting, queue = {first: 0}, [], set(), [first]
    while queue:
        current = queue.pop(0)
        row = []
        for digit in DIGITS:
            targets = [t for s in current for (ds, t) in nfa.edges[s] if digit in ds]
            if not targets:
                row.append(DEAD)
                continue
            nxt = closure(nfa, targets)
            if nxt not in index:
                index[nxt] = len(index)
                queue.append(nxt)
            row.append(index[nxt])
        rows.append(row)
        if end in current:
            accepting.add(index[current])
    return minimize(DFA(rows, accepting))


def minimize(dfa):
    """Moore's partition refinement, then renumbered breadth-first from the start so that equal
    languages give identical tables (the generator's output is deterministic)."""
    n = len(dfa.rows)
    block = [1 if s in dfa.accepting else 0 for s in range(n)]
    while True:
        signature = {}
        new_block = []
        for s in range(n):
            key = (block[s],) + tuple(block[t] if t != DEAD else -1 for t in dfa.rows[s])
            new_block.append(signature.setdefault(key, len(signature)))
        if len(signature) == len(set(block)):
            break
        block = new_block
    block = new_block
    # Drop blocks that cannot reach an accepting state (they act as DEAD).
    live = {block[s] for s in dfa.accepting}
    changed = True
    while changed:
        changed = False
        for s in range(n):
            if block[s] not in live and any(t != DEAD and block[t] in live for t in dfa.rows[s]):
                live.add(block[s])
                changed = True
    order = {}
    queue = [block[0]] if block[0] in live else []
    representative = {}
    for s in range(n):
        representative.setdefault(block[s], s)
    for b in queue:
        if b not in order:
            order[b] = len(order)
            for t in dfa.rows[representative[b]]:
                if t != DEAD and block[t] in live and block[t] not in order and block[t] not in queue:
                    queue.append(block[t])
    if not order:  # the empty language
        return DFA([[DEAD] * 10], set())
    rows = [None] * len(order)
    accepting = set()
    for b, new in order.items():
        s = representative[b]
        rows[new] = [order[block[t]] if t != DEAD and block[t] in live else DEAD for t in dfa.rows[s]]
        if s in dfa.accepting:
            accepting.add(new)
    return DFA(rows, accepting)


def product(a, b, both):
    """The DFA of `a` and `b` run side by side, accepting where `both(x, y)` holds."""
    index, rows, accepting, queue = {(0, 0): 0}, [], set(), [(0, 0)]
    while queue:
        pair = queue.pop(0)
        row = []
        for d in DIGITS:
            nxt = (a.rows[pair[0]][d] if pair[0] != DEAD else DEAD,
                   b.rows[pair[1]][d] if pair[1] != DEAD else DEAD)
            if nxt == (DEAD, DEAD):
                row.append(DEAD)
                continue
            if nxt not in index:
                index[nxt] = len(index)
                queue.append(nxt)
            row.append(index[nxt])
        rows.append(row)
        if both(pair[0] in a.accepting, pair[1] in b.accepting):
            accepting.add(index[pair])
    return minimize(DFA(rows, accepting))


def union(a, b):
    return product(a, b, lambda x, y: x or y)


def intersection(a, b):
    return product(a, b, lambda x, y: x and y)


def lengths_dfa(lengths):
    """Digit strings whose length is in `lengths`."""
    top = max(lengths)
    rows = [[s + 1 if s < top else DEAD] * 10 for s in range(top + 1)]
    return DFA(rows, set(lengths))


def pattern_dfa(pattern):
    return dfa_from_nodes(list(P.parse(pattern)))


# Prefix patterns: ordered alternatives of segments ------------------------------------------------

def has_structure(nodes):
    """True when `nodes` hold a capture group or an end anchor."""
    for op, av in nodes:
        if op == C.AT:
            return True
        if op == C.SUBPATTERN and (av[0] is not None or has_structure(av[3])):
            return True
        if op == C.BRANCH and any(has_structure(b) for b in av[1]):
            return True
        if op in (C.MAX_REPEAT, C.MIN_REPEAT) and has_structure(av[2]):
            return True
    return False


def expand(nodes):
    """Alternatives in the order a backtracking matcher tries them; each a list of items:
    ('seg', nodes), ('cap', group, nodes) or ('end',)."""
    alternatives = [[]]
    for op, av in nodes:
        if not has_structure([(op, av)]):
            options = [[('seg', [(op, av)])]]
        elif op == C.AT:
            if av != C.AT_END:
                raise ValueError(f"unsupported anchor {av}")
            options = [[('end',)]]
        elif op == C.SUBPATTERN and av[0] is not None and not has_structure(av[3]):
            options = [[('cap', av[0], av[3])]]
        elif op == C.SUBPATTERN and av[0] is not None:
            raise ValueError("a capture group holding captures")
        elif op == C.SUBPATTERN:
            options = expand(av[3])
        elif op == C.BRANCH:
            options = [alt for branch in av[1] for alt in expand(branch)]
        elif op == C.MAX_REPEAT and av[0] == 0 and av[1] == 1:
            options = expand(av[2]) + [[]]
        else:
            raise ValueError(f"unsupported structure {op}")
        alternatives = [a + o for a in alternatives for o in options]
    return [merge_segments(a) for a in alternatives]


def merge_segments(items):
    merged = []
    for item in items:
        if item[0] == 'seg' and merged and merged[-1][0] == 'seg':
            merged[-1] = ('seg', merged[-1][1] + item[1])
        else:
            merged.append(item)
    return merged


class PrefixRule:
    """A prefix pattern as alternatives of DFA segments; `looking_at` is what the Swift side does."""

    def __init__(self, pattern):
        self.pattern = pattern
        self.groups = re.compile(pattern).groups
        self.alternatives = []
        for alternative in expand(list(P.parse(pattern))):
            items = []
            for item in alternative:
                if item[0] == 'end':
                    items.append(('end', 0, None))
                else:
                    group = item[1] if item[0] == 'cap' else 0
                    items.append(('dfa', group, dfa_from_nodes(item[-1])))
            self.alternatives.append(items)

    def looking_at(self, digits):
        """(end, {group: (start, end)}) of the first match at the start, or None."""
        for items in self.alternatives:
            found = self._match(items, 0, digits, 0, {})
            if found is not None:
                return found
        return None

    def _match(self, items, index, digits, position, groups):
        if index == len(items):
            return position, dict(groups)
        kind, group, dfa = items[index]
        if kind == 'end':
            return self._match(items, index + 1, digits, position, groups) if position == len(digits) else None
        for end in dfa.match_ends(digits, position):
            if group:
                groups[group] = (position, end)
            found = self._match(items, index + 1, digits, end, groups)
            if found is not None:
                return found
            groups.pop(group, None)
        return None

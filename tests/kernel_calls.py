"""The kernel's two entries with their settings as keywords, the form the equality tests read best in.

Thin: each builds the request value and asks :func:`~pacsim.fast.search.run_request` or
:func:`~pacsim.fast.mcts.run_mcts_request`, the only entries pacsim itself uses."""

from pacsim.fast.mcts import run_mcts_request
from pacsim.fast.request import ADVERSARIAL, DEFAULT_ADVERSARY, MctsRequest, round_request
from pacsim.fast.search import run_request


def kernel_search(state, kinds, evaluation, levels, pruned=False, model="uniform", trust=1.0, root_values=False,
                  deadline=None, slip=0.0, star=None, table=None, adversary=DEFAULT_ADVERSARY):
    """``kinds`` every agent's node kind, ``pruned`` alpha-beta, ``star`` ``star1`` or ``star2``, ``table`` a
    :class:`~pacsim.fast.transposition.KernelTable`, ``adversary`` the ``(depth, p)`` of ``model=adversarial``."""
    request = round_request(kinds, evaluation, levels, state.layout.num_cells,
                            star or ("alphabeta" if pruned else "expectimax"), model=model, trust=trust, slip=slip,
                            table=0 if table is None else table.max_entries,
                            adversary=adversary if model == ADVERSARIAL else None, root_values=root_values)
    return run_request(state, request, deadline=deadline, table=table)


def kernel_mcts(state, ghost_kind, evaluation, iterations, c=1.4, rollout_depth=6, seed=0):
    """``MctsPacman(iterations=..., ghosts=ghost_kind, eval=evaluation).analyze(state, seed)`` in the kernel."""
    request = MctsRequest(ghosts=ghost_kind, evaluation=evaluation, iterations=iterations, c=c, rollout="random",
                          rollout_depth=rollout_depth)
    return run_mcts_request(state, request, seed)

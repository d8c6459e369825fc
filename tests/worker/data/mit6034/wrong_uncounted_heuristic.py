# Heuristic evaluations not counted; the games lab's search functions written in the lab's style (for these tests).
from game_api import *
from boards import *
from toytree import GAME1

INF = float("inf")


def minimax_endgame_search(state, maximize=True):
    if state.is_game_over():
        return [state], state.get_endgame_score(maximize), 1
    best, evaluations = None, 0
    for child in state.generate_next_states():
        path, score, count = minimax_endgame_search(child, not maximize)
        evaluations += count
        if best is None or (score > best[1] if maximize else score < best[1]):
            best = ([state] + path, score)
    return best[0], best[1], evaluations


def minimax_search(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    if state.is_game_over():
        return [state], state.get_endgame_score(maximize), 1
    if depth_limit == 0:
        return [state], heuristic_fn(state.get_snapshot(), maximize), 0
    best, evaluations = None, 0
    for child in state.generate_next_states():
        path, score, count = minimax_search(child, heuristic_fn, depth_limit - 1, not maximize)
        evaluations += count
        if best is None or (score > best[1] if maximize else score < best[1]):
            best = ([state] + path, score)
    return best[0], best[1], evaluations


def minimax_search_alphabeta(state, alpha=-INF, beta=INF, heuristic_fn=always_zero,
                             depth_limit=INF, maximize=True):
    if state.is_game_over():
        return [state], state.get_endgame_score(maximize), 1
    if depth_limit == 0:
        return [state], heuristic_fn(state.get_snapshot(), maximize), 0
    best, evaluations = None, 0
    for child in state.generate_next_states():
        path, score, count = minimax_search_alphabeta(
            child, alpha, beta, heuristic_fn, depth_limit - 1, not maximize
        )
        evaluations += count
        if best is None or (score > best[1] if maximize else score < best[1]):
            best = ([state] + path, score)
        if maximize:
            alpha = max(alpha, score)
        else:
            beta = min(beta, score)
        if alpha >= beta:
            break
    return best[0], best[1], evaluations

# The handout's part of multiAgents.py every agent file below starts with (written for these
# tests in the style of CS188's project): imports of the course's modules, the default
# evaluation function and the base class that builds an agent from evalFn and depth.
import random

import util
from game import Agent, Directions
from pacman import GameState


def scoreEvaluationFunction(currentGameState: GameState):
    return currentGameState.getScore()


class MultiAgentSearchAgent(Agent):
    def __init__(self, evalFn="scoreEvaluationFunction", depth="2"):
        self.index = 0
        self.evaluationFunction = util.lookup(evalFn, globals())
        self.depth = int(depth)

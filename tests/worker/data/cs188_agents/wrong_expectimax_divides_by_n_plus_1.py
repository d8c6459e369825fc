class ExpectimaxAgent(MultiAgentSearchAgent):
    """Divides by one more than the number of moves."""

    def getAction(self, gameState: GameState):
        actions = gameState.getLegalActions(0)
        scores = [self.expectimax(gameState.generateSuccessor(0, a), 1, 0) for a in actions]
        return actions[scores.index(max(scores))]

    def expectimax(self, state, agent, depth):
        if state.isWin() or state.isLose() or depth == self.depth:
            return self.evaluationFunction(state)
        following = (agent + 1) % state.getNumAgents()
        deeper = depth + 1 if following == 0 else depth
        scores = [
            self.expectimax(state.generateSuccessor(agent, a), following, deeper)
            for a in state.getLegalActions(agent)
        ]
        if agent == 0:
            return max(scores)
        return sum(scores) / (len(scores) + 1)

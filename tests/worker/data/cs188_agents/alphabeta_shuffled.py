class AlphaBetaAgent(MultiAgentSearchAgent):
    """Tries Pacman's moves in a random order: what it prunes depends on the draw."""

    def getAction(self, gameState: GameState):
        return self.maxValue(gameState, 0, float("-inf"), float("inf"))[1]

    def maxValue(self, state, depth, alpha, beta):
        if state.isWin() or state.isLose() or depth == self.depth:
            return self.evaluationFunction(state), None
        v, move = float("-inf"), None
        actions = state.getLegalActions(0)
        random.shuffle(actions)
        for action in actions:
            score = self.minValue(state.generateSuccessor(0, action), 1, depth, alpha, beta)
            if score > v:
                v, move = score, action
            if v > beta:
                return v, move
            alpha = max(alpha, v)
        return v, move

    def minValue(self, state, agent, depth, alpha, beta):
        if state.isWin() or state.isLose():
            return self.evaluationFunction(state)
        v = float("inf")
        for action in state.getLegalActions(agent):
            child = state.generateSuccessor(agent, action)
            if agent == state.getNumAgents() - 1:
                score = self.maxValue(child, depth + 1, alpha, beta)[0]
            else:
                score = self.minValue(child, agent + 1, depth, alpha, beta)
            v = min(v, score)
            if v < alpha:
                return v
            beta = min(beta, v)
        return v

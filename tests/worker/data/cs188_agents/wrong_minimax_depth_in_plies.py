class MinimaxAgent(MultiAgentSearchAgent):
    """Counts the depth in plies, not in moves of every agent."""

    def getAction(self, gameState: GameState):
        def value(state, agent, depth):
            if state.isWin() or state.isLose() or depth == self.depth:
                return self.evaluationFunction(state)
            following = (agent + 1) % state.getNumAgents()
            deeper = depth + 1
            scores = [
                value(state.generateSuccessor(agent, action), following, deeper)
                for action in state.getLegalActions(agent)
            ]
            return max(scores) if agent == 0 else min(scores)

        best, choice = float("-inf"), Directions.STOP
        for action in gameState.getLegalActions(0):
            score = value(gameState.generateSuccessor(0, action), 1, 1)
            if score > best:
                best, choice = score, action
        return choice

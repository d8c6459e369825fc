class MinimaxAgent(MultiAgentSearchAgent):
    """Searches Pacman's moves in a random order (ties go to the first found)."""

    def getAction(self, gameState: GameState):
        def value(state, agent, depth):
            if state.isWin() or state.isLose() or depth == self.depth:
                return self.evaluationFunction(state)
            following = (agent + 1) % state.getNumAgents()
            deeper = depth + 1 if following == 0 else depth
            scores = [
                value(state.generateSuccessor(agent, action), following, deeper)
                for action in state.getLegalActions(agent)
            ]
            return max(scores) if agent == 0 else min(scores)

        actions = gameState.getLegalActions(0)
        random.shuffle(actions)
        scores = [value(gameState.generateSuccessor(0, a), 1, 0) for a in actions]
        return actions[scores.index(max(scores))]

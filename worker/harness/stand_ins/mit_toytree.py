"""MIT 6.034's ``toytree``, which the games lab's file imports ``GAME1`` from: the lab's
own toy game is not here (the exercise's tree is what the searches get), so the name is
None."""

GAME1 = None

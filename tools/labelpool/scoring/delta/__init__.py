"""The delta range: what any labelling of the unjudged documents could make a delta.

``question`` computes it one question at a time (the reference: ``question_range``,
``delta_range``, ``DeltaRange``, ``JudgeCost``); ``arrays`` computes the same for every
question at once in numpy, held equal to the reference by the tests.
"""

"""Agreement between judges: the statistics, pure numpy (scipy, scikit-learn and krippendorff
are only the references in the tests).

* :mod:`~labelpool.agreement.panel`: the panel, one row per doubly judged document, one column
  per judge, a grade or NaN;
* :mod:`~labelpool.agreement.blocks`: each statistic as sums over questions (a block of
  per-question features) and a function of those sums, so that a bootstrap replicate (questions
  resampled) is one matrix product;
* :mod:`~labelpool.agreement.alpha`: Krippendorff's alpha (ordinal and nominal metrics);
* :mod:`~labelpool.agreement.kappa`: Cohen's kappa (plain, quadratic weights), raw agreement and
  the confusion matrix of one pair of judges;
* :mod:`~labelpool.agreement.gwet`: Gwet's AC1/AC2 (Gwet 2014, weights);
* :mod:`~labelpool.agreement.bootstrap`: percentile intervals over resampled questions;
* :mod:`~labelpool.agreement.tau`: Kendall's tau-b (scipy's definition);
* :mod:`~labelpool.agreement.figures`: every figure of ``labelpool agreement`` from a panel.
"""

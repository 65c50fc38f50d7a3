"""cellgrad-digits: a CNN trained on scikit-learn's handwritten digits with cellgrad."""

__version__ = "0.1.0"

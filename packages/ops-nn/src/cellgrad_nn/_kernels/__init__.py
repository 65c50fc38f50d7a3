"""Cython kernels (convolution, pooling). Entry points validate shapes; loops run nogil."""

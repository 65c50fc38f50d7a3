"""Readers of on-disk dataset formats, mirroring MindSpore's file-reading source datasets.

One module per format family: `idx` (MNIST-style IDX files), `cifar` (CIFAR-10/100 binary
batches), `image_folder` (a folder of class folders of images), `text` (CSV and text lines).
"""

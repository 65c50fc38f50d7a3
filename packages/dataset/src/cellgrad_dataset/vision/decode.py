"""Decoding and encoding: `Decode` and the image file functions of `mindspore.dataset.vision`.
OpenCV decodes (as MindSpore's C++ Decode: identical pixels for JPEG and PNG, checked)."""

import io

import cv2
import numpy as np
from PIL import Image

from cellgrad_dataset.transforms.base import TensorOperation, pipeline_error
from cellgrad_dataset.vision.image import is_pil
from cellgrad_dataset.vision.utils import ImageReadMode


def _bytes(op, data):
    if isinstance(data, (bytes, bytearray)):
        return np.frombuffer(data, np.uint8)
    data = np.asarray(data)
    if data.dtype != np.uint8 or data.ndim != 1:
        raise pipeline_error(op, f"invalid data: expected the encoded image as a 1-D uint8 "
                                 f"array, got dtype {data.dtype} and shape {data.shape}; the "
                                 f"image may already be decoded.")
    return data


def decode_array(op, data, flags=cv2.IMREAD_COLOR):
    img = cv2.imdecode(_bytes(op, data), flags)
    if img is None:
        raise pipeline_error(op, "image decode failed: the data is not a JPEG, PNG, BMP, TIFF "
                                 "or WebP image, or it is corrupt.")
    if img.ndim == 3:
        img = cv2.cvtColor(img, cv2.COLOR_BGRA2RGBA if img.shape[2] == 4 else
                           cv2.COLOR_BGR2RGB)
    return img


class Decode(TensorOperation):
    """Mirrors `mindspore.dataset.vision.Decode`: encoded bytes (1-D uint8) to an RGB <H,W,3>
    uint8 array, or a PIL RGB image with `to_pil=True`."""

    def __init__(self, to_pil=False):
        if not isinstance(to_pil, bool):
            raise TypeError(f"Argument to_pil with value {to_pil!r} is not of type "
                            f"[<class 'bool'>], but got {type(to_pil)}.")
        self.to_pil = to_pil

    def _apply(self, data):
        if is_pil(data):
            raise TypeError("Decode: the input is a PIL image, which is already decoded.")
        if self.to_pil:
            try:
                return Image.open(io.BytesIO(_bytes("Decode", data).tobytes())).convert("RGB")
            except (OSError, SyntaxError) as exc:
                raise pipeline_error("Decode", f"image decode failed: {exc}") from exc
        return decode_array("Decode", data)


def read_file(filename):
    """Mirrors `mindspore.dataset.vision.read_file`: a file's bytes as a 1-D uint8 array."""
    with open(filename, "rb") as f:
        return np.frombuffer(f.read(), np.uint8)


def read_image(filename, mode=ImageReadMode.UNCHANGED):
    """Mirrors `mindspore.dataset.vision.read_image`: a JPEG/PNG file as an <H,W,C> array."""
    flags = {ImageReadMode.UNCHANGED: cv2.IMREAD_UNCHANGED,
             ImageReadMode.GRAYSCALE: cv2.IMREAD_GRAYSCALE,
             ImageReadMode.COLOR: cv2.IMREAD_COLOR}[ImageReadMode(mode)]
    img = decode_array("read_image", read_file(filename), flags)
    return img[..., None] if img.ndim == 2 else img


def _encode(op, ext, image, params):
    image = np.asarray(image)
    if image.dtype != np.uint8 or image.ndim not in (2, 3) or \
            (image.ndim == 3 and image.shape[2] not in (1, 3)):
        raise RuntimeError(f"{op}: the image must be uint8 <H,W> or <H,W,C> with 1 or 3 "
                           f"channels, got dtype {image.dtype} and shape {image.shape}.")
    if image.ndim == 3 and image.shape[2] == 3:
        image = cv2.cvtColor(image, cv2.COLOR_RGB2BGR)
    ok, buf = cv2.imencode(ext, np.ascontiguousarray(image), params)
    if not ok:
        raise RuntimeError(f"{op}: OpenCV could not encode the image.")
    return buf.reshape(-1)


def encode_jpeg(image, quality=75):
    """Mirrors `mindspore.dataset.vision.encode_jpeg`."""
    if not 1 <= quality <= 100:
        raise ValueError(f"Invalid quality {quality}, should be in range of [1, 100].")
    return _encode("encode_jpeg", ".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])


def encode_png(image, compression_level=6):
    """Mirrors `mindspore.dataset.vision.encode_png`."""
    if not 0 <= compression_level <= 9:
        raise ValueError(f"Invalid compression_level {compression_level}, should be in range "
                         f"of [0, 9].")
    return _encode("encode_png", ".png", image, [cv2.IMWRITE_PNG_COMPRESSION, compression_level])


def write_file(filename, data):
    """Mirrors `mindspore.dataset.vision.write_file`."""
    with open(filename, "wb") as f:
        f.write(np.asarray(data, np.uint8).tobytes())


def write_jpeg(filename, image, quality=75):
    """Mirrors `mindspore.dataset.vision.write_jpeg`."""
    write_file(filename, encode_jpeg(image, quality))


def write_png(filename, image, compression_level=6):
    """Mirrors `mindspore.dataset.vision.write_png`."""
    write_file(filename, encode_png(image, compression_level))


def get_image_size(image):
    """Mirrors `mindspore.dataset.vision.get_image_size`: [height, width]."""
    if is_pil(image):
        return [image.size[1], image.size[0]]
    image = np.asarray(image)
    if image.ndim < 2:
        raise RuntimeError(f"get_image_size: the image must have at least 2 dimensions, got "
                           f"shape {image.shape}.")
    return [image.shape[0], image.shape[1]]


def get_image_num_channels(image):
    """Mirrors `mindspore.dataset.vision.get_image_num_channels`."""
    if is_pil(image):
        return len(image.getbands())
    image = np.asarray(image)
    if image.ndim < 2:
        raise RuntimeError(f"get_image_num_channels: the image must have at least 2 "
                           f"dimensions, got shape {image.shape}.")
    return 1 if image.ndim == 2 else image.shape[2]

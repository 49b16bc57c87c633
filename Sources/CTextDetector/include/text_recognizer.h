#ifndef LOVESNAP_TEXT_RECOGNIZER_H
#define LOVESNAP_TEXT_RECOGNIZER_H

// A trained text recognizer (PaddleOCR's PP-OCRv4 SVTR-LCNet recognizer,
// Models/text-recognition.onnx) run through OpenCV's dnn module: the second reading of words
// Tesseract doubted. A small C interface over OpenCV's C++ API (text_recognizer.cpp); the images
// are Leptonica's 32 bpp rasters.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The network's input height and width, pixels, and the column steps it answers for (one
/// every 8 px).
enum { TR_HEIGHT = 48, TR_WIDTH = 320, TR_STEPS = 40 };

/// A word's box: left, top, width, height in pixels of the image given.
typedef struct {
    int x, y, width, height;
} tr_box;

/// What the network read in one box: its classes (CTC greedy decoding: the best class at each
/// column step inside the box, repeats merged, blanks dropped; class k ≥ 1 is line k of the
/// model's character list), how many, and the mean probability (0–1) of the classes kept, 0
/// when none.
typedef struct {
    int classes[TR_STEPS];
    int length;
    float score;
} tr_reading;

/// Reads each of `count` boxes of a Leptonica 32 bpp raster (`pixGetData`, `wpl` words a row):
/// each cut out with a margin of 15 % of its height (at least 2 px) on every side, scaled to
/// 48 px high (its width in proportion, at most 320 px), and set side by side on strips of
/// 320 × 48 px with 24 px between them, each strip read by the network from
/// `model` (`cv::dnn::readNetFromONNX`), the strips shared among `threads` threads (at least 1),
/// each with its net. A box outside the image, or empty, reads nothing. Writes `count` readings
/// into `readings`. A model whose classes are not `characters` + 1 (the blank) is refused: its
/// character list is not its own.
///
/// Returns 0, or -1 with OpenCV's reason, NUL-terminated, in `error` (`error_size` bytes).
int tr_read(const char *model, const uint32_t *data, int width, int height, int wpl, const tr_box *boxes, int count,
            int characters, int threads, tr_reading *readings, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif

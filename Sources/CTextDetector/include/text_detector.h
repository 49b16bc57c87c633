#ifndef LOVESNAP_TEXT_DETECTOR_H
#define LOVESNAP_TEXT_DETECTOR_H

// A trained text detector (PaddleOCR's PP-OCRv4 DB detector, Models/text-detection.onnx) run
// through OpenCV's dnn module, and the line images cut out along what it found. A small C
// interface over OpenCV's C++ API (text_detector.cpp); the images are Leptonica's 32 bpp rasters.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One detected text region: its quadrilateral (x, y of the top-left, top-right, bottom-right and
/// bottom-left corners, pixels of the image given, after DB's unclipping), and its score, the
/// mean text probability (0–1) over the pixels of its own contour.
typedef struct {
    float points[8];
    float score;
} td_region;

/// The settings of DB's post-processing (PaddleOCR's `DBPostProcess`).
typedef struct {
    /// The longer side the image is scaled to before the network, pixels (a multiple of 32 is used).
    int limit_side;
    /// Probability above which a pixel is text (0–1).
    float threshold;
    /// Mean probability over a region's own pixels below which it is dropped (0–1).
    float region_threshold;
    /// How far a region grows: by area × ratio / perimeter (DB's unclip ratio).
    float unclip_ratio;
} td_settings;

/// Detects the text regions of a Leptonica 32 bpp raster (`pixGetData`, `wpl` words a row, a
/// pixel's bytes A, B, G, R in memory on little-endian machines, as Leptonica stores R G B A in
/// a word). The network is read from `model` (`cv::dnn::readNetFromONNX`) for each call: a net
/// reused for a second input size gave wrong maps on OpenCV 4.6.
///
/// On success returns 0 and sets `*regions` (free with `td_regions_free`) and `*count`; on
/// failure returns -1 and writes OpenCV's reason, NUL-terminated, into `error` (`error_size` bytes).
int td_detect(const char *model, const uint32_t *data, int width, int height, int wpl, td_settings settings,
              td_region **regions, int *count, char *error, size_t error_size);

void td_regions_free(td_region *regions);

/// Cuts the quadrilateral `points` (as in `td_region`) out of a 32 bpp raster into `out`, a 32 bpp
/// raster of `out_width` × `out_height` (`out_wpl` words a row): a perspective warp
/// (`cv::warpPerspective`, bilinear, the border replicated). Writes the 3×3 homography from `out`
/// back to the source, row-major, into `inverse`. Returns 0, or -1 with the reason in `error`.
int td_warp(const uint32_t *data, int width, int height, int wpl, const float points[8], uint32_t *out,
            int out_width, int out_height, int out_wpl, double inverse[9], char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif

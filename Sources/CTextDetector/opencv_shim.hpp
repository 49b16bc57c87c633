// What the two OpenCV shims (text_detector.cpp, text_recognizer.cpp) share: Leptonica's rasters
// as OpenCV matrices, and OpenCV's failures as a C function's -1 and its reason.

#ifndef LOVESNAP_OPENCV_SHIM_HPP
#define LOVESNAP_OPENCV_SHIM_HPP

#include <opencv2/core.hpp>

#include <cstdint>
#include <cstdio>
#include <exception>

namespace lovesnap {

/// Writes `what`, NUL-terminated, into `error` (`size` bytes).
inline void say(char *error, size_t size, const char *what) {
    if (error != nullptr && size > 0) {
        std::snprintf(error, size, "%s", what);
    }
}

/// Leptonica's 32 bpp raster as a 4-channel Mat, bytes in memory order (A, B, G, R on x86).
inline cv::Mat wrap(const uint32_t *data, int width, int height, int wpl) {
    return cv::Mat(height, width, CV_8UC4, const_cast<uint32_t *>(data), static_cast<size_t>(wpl) * 4);
}

/// `rgba` (a `wrap`ped raster or a part of one) in B, G, R order, as OpenCV's networks take it
/// (Leptonica keeps R in the word's high byte: memory order A, B, G, R).
inline cv::Mat bgr(const cv::Mat &rgba) {
    cv::Mat out(rgba.rows, rgba.cols, CV_8UC3);
    const int from_to[] = {1, 0, 2, 1, 3, 2};
    cv::mixChannels(&rgba, 1, &out, 1, from_to, 3);
    return out;
}

/// `body()` (0 on success, -1 with its reason said), an exception it throws (OpenCV's
/// `cv::Exception` or another) said into `error` as -1: no exception crosses the C interface.
template <typename Body>
int guarded(char *error, size_t size, Body body) {
    try {
        return body();
    } catch (const std::exception &e) {
        say(error, size, e.what());
        return -1;
    }
}

}  // namespace lovesnap

#endif

// The text detector and line cutting of text_detector.h, over OpenCV 4.6 (core, imgproc, dnn).
//
// Pre- and post-processing follow PaddleOCR's DB detector as RapidOCR 1.4.4 runs it
// (`ch_ppocr_det/utils.py`: `DetPreProcess`, `DBPostProcess`): the image scaled so that its
// longer side is `limit_side` (each side rounded to a multiple of 32), (x / 255 − 0.5) / 0.5 per
// channel in B, G, R order, the network's sigmoid map thresholded, dilated by 2×2, its outer
// contours (`cv::findContours`) boxed by `cv::minAreaRect`, each scored by the mean probability
// inside its own contour (DB's "slow" score: a curved line is not judged by its rectangle's
// corners), and grown by area × unclip ratio / perimeter on every side (for a rectangle, what
// pyclipper's rounded offset followed by `minAreaRect` gives).

#include "text_detector.h"

#include "opencv_shim.hpp"

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

using lovesnap::say;
using lovesnap::wrap;

/// The corners of a rotated rectangle from its top-left, clockwise (as PaddleOCR orders them).
void ordered(const cv::RotatedRect &rect, float out[8]) {
    cv::Point2f p[4];
    rect.points(p);
    std::vector<cv::Point2f> v(p, p + 4);
    std::sort(v.begin(), v.end(), [](const cv::Point2f &a, const cv::Point2f &b) { return a.x < b.x; });
    cv::Point2f tl = v[0].y <= v[1].y ? v[0] : v[1];
    cv::Point2f bl = v[0].y <= v[1].y ? v[1] : v[0];
    cv::Point2f tr = v[2].y <= v[3].y ? v[2] : v[3];
    cv::Point2f br = v[2].y <= v[3].y ? v[3] : v[2];
    const cv::Point2f q[4] = {tl, tr, br, bl};
    for (int i = 0; i < 4; i++) {
        out[2 * i] = q[i].x;
        out[2 * i + 1] = q[i].y;
    }
}

}  // namespace

extern "C" int td_detect(const char *model, const uint32_t *data, int width, int height, int wpl,
                         td_settings settings, td_region **regions, int *count, char *error,
                         size_t error_size) {
    *regions = nullptr;
    *count = 0;
    return lovesnap::guarded(error, error_size, [&] {
        if (width < 1 || height < 1) {
            say(error, error_size, "empty image");
            return -1;
        }
        const cv::Mat bgr = lovesnap::bgr(wrap(data, width, height, wpl));

        const double ratio = static_cast<double>(settings.limit_side) / std::max(width, height);
        const int in_w = std::max(32, static_cast<int>(std::lround(width * ratio / 32.0)) * 32);
        const int in_h = std::max(32, static_cast<int>(std::lround(height * ratio / 32.0)) * 32);
        // Area averaging, not blobFromImage's bilinear scaling: a phone photo shrinks 4× and more.
        cv::Mat small;
        cv::resize(bgr, small, cv::Size(in_w, in_h), 0, 0, in_w < width ? cv::INTER_AREA : cv::INTER_LINEAR);
        cv::Mat blob =
            cv::dnn::blobFromImage(small, 1.0 / 127.5, cv::Size(), cv::Scalar(127.5, 127.5, 127.5), false, false, CV_32F);
        // One thread: the detector runs beside Tesseract's reading, which has the other core.
        cv::setNumThreads(1);
        cv::dnn::Net net = cv::dnn::readNetFromONNX(model);
        net.setInput(blob);
        cv::Mat out = net.forward();
        if (out.dims != 4 || out.size[2] != in_h || out.size[3] != in_w) {
            say(error, error_size, "the model's output is not one probability map of the input's size");
            return -1;
        }
        cv::Mat map(in_h, in_w, CV_32F, out.ptr<float>(0, 0));
        cv::Mat mask = map > settings.threshold;
        cv::dilate(mask, mask, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(2, 2)));
        std::vector<std::vector<cv::Point>> contours;
        cv::findContours(mask, contours, cv::RETR_LIST, cv::CHAIN_APPROX_SIMPLE);

        std::vector<td_region> found;
        const double sx = static_cast<double>(width) / in_w;
        const double sy = static_cast<double>(height) / in_h;
        for (const auto &contour : contours) {
            if (contour.size() < 3) continue;
            cv::RotatedRect rect = cv::minAreaRect(contour);
            if (std::min(rect.size.width, rect.size.height) < 3) continue;
            cv::Rect bounds = cv::boundingRect(contour) & cv::Rect(0, 0, in_w, in_h);
            if (bounds.empty()) continue;
            cv::Mat own = cv::Mat::zeros(bounds.size(), CV_8U);
            std::vector<std::vector<cv::Point>> shifted{contour};
            for (auto &p : shifted[0]) p -= bounds.tl();
            cv::fillPoly(own, shifted, cv::Scalar(1));
            const double score = cv::mean(map(bounds), own)[0];
            if (score < settings.region_threshold) continue;
            const double area = rect.size.area();
            const double perimeter = 2 * (rect.size.width + rect.size.height);
            const float grow = static_cast<float>(area * settings.unclip_ratio / perimeter);
            cv::RotatedRect grown(rect.center, cv::Size2f(rect.size.width + 2 * grow, rect.size.height + 2 * grow),
                                  rect.angle);
            if (std::min(grown.size.width, grown.size.height) < 5) continue;
            td_region r;
            ordered(grown, r.points);
            for (int i = 0; i < 4; i++) {
                r.points[2 * i] = static_cast<float>(std::clamp(r.points[2 * i] * sx, 0.0, static_cast<double>(width)));
                r.points[2 * i + 1] =
                    static_cast<float>(std::clamp(r.points[2 * i + 1] * sy, 0.0, static_cast<double>(height)));
            }
            r.score = static_cast<float>(score);
            found.push_back(r);
        }
        if (!found.empty()) {
            *regions = static_cast<td_region *>(std::malloc(found.size() * sizeof(td_region)));
            if (*regions == nullptr) {
                say(error, error_size, "out of memory");
                return -1;
            }
            std::memcpy(*regions, found.data(), found.size() * sizeof(td_region));
        }
        *count = static_cast<int>(found.size());
        return 0;
    });
}

extern "C" void td_regions_free(td_region *regions) { std::free(regions); }

extern "C" int td_warp(const uint32_t *data, int width, int height, int wpl, const float points[8], uint32_t *out,
                       int out_width, int out_height, int out_wpl, double inverse[9], char *error,
                       size_t error_size) {
    try {
        cv::Mat src = wrap(data, width, height, wpl);
        cv::Mat dst(out_height, out_width, CV_8UC4, out, static_cast<size_t>(out_wpl) * 4);
        const cv::Point2f from[4] = {{points[0], points[1]}, {points[2], points[3]}, {points[4], points[5]},
                                     {points[6], points[7]}};
        const float w = static_cast<float>(out_width), h = static_cast<float>(out_height);
        const cv::Point2f to[4] = {{0, 0}, {w, 0}, {w, h}, {0, h}};
        cv::Mat m = cv::getPerspectiveTransform(from, to);
        cv::warpPerspective(src, dst, m, dst.size(), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
        cv::Mat back = m.inv();
        for (int i = 0; i < 9; i++) inverse[i] = back.at<double>(i / 3, i % 3);
        return 0;
    } catch (const cv::Exception &e) {
        say(error, error_size, e.what());
        return -1;
    }
}

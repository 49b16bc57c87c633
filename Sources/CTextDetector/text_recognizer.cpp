// The text recognizer of text_recognizer.h, over OpenCV 4.6 (core, imgproc, dnn).
//
// Pre- and post-processing follow PaddleOCR's recognizer as RapidOCR 1.4.4 runs it
// (`ch_ppocr_rec/text_recognize.py`, `utils.py`: `resize_norm_img`, `CTCLabelDecode`): the image
// in B, G, R order scaled to 48 px high, (x / 255 − 0.5) / 0.5 per channel, the rest of the
// input 0; the best class at each column step, repeats merged, blanks dropped, the score the mean
// of the kept classes' probabilities. Several words share one input here, side by side: each
// word's classes are those of the steps whose middle falls inside it.

#include "text_recognizer.h"

#include "opencv_shim.hpp"

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace {

using lovesnap::say;

/// The space left between two words on a strip, pixels: three column steps.
constexpr int gap = 24;

struct Placed {
    int word;
    int left, right;  // columns on the strip
};

/// Each word's classes on a strip read: the best class at each column step whose middle falls
/// inside the word, repeats merged, blanks dropped (CTC's greedy decoding).
void decode(const cv::Mat &out, const std::vector<Placed> &strip, tr_reading *readings) {
    const int classes = out.size[2];
    for (const auto &p : strip) {
        tr_reading &r = readings[p.word];
        int previous = 0;
        double sum = 0;
        for (int s = 0; s < TR_STEPS; s++) {
            const int middle = s * 8 + 4;
            if (middle < p.left || middle >= p.right) continue;
            const float *row = out.ptr<float>(0, s);
            const int best = static_cast<int>(std::max_element(row, row + classes) - row);
            if (best != 0 && best != previous && r.length < TR_STEPS) {
                r.classes[r.length++] = best;
                sum += row[best];
            }
            previous = best;
        }
        r.score = r.length > 0 ? static_cast<float>(sum / r.length) : 0.0f;
    }
}

}  // namespace

extern "C" int tr_read(const char *model, const uint32_t *data, int width, int height, int wpl, const tr_box *boxes,
                       int count, int characters, int threads, tr_reading *readings, char *error,
                       size_t error_size) {
    return lovesnap::guarded(error, error_size, [&] {
        for (int i = 0; i < count; i++) {
            readings[i].length = 0;
            readings[i].score = 0;
        }
        const cv::Mat rgba = lovesnap::wrap(data, width, height, wpl);

        // Each word scaled to the network's height, placed on strips left to right.
        std::vector<std::vector<Placed>> strips(1);
        std::vector<cv::Mat> scaled(count);
        int x = 0;
        for (int i = 0; i < count; i++) {
            if (boxes[i].width < 1 || boxes[i].height < 1) continue;
            // A margin of 15 % of the box's height on every side: a full stop or comma at the
            // word's very end is otherwise lost at the cut.
            const int margin = std::max(2, static_cast<int>(std::lround(0.15 * boxes[i].height)));
            const cv::Rect box = cv::Rect(boxes[i].x - margin, boxes[i].y - margin, boxes[i].width + 2 * margin,
                                          boxes[i].height + 2 * margin) &
                                 cv::Rect(0, 0, width, height);
            if (box.width < 2 || box.height < 2) continue;
            const cv::Mat bgr = lovesnap::bgr(rgba(box));
            const int w = std::clamp(static_cast<int>(std::ceil(TR_HEIGHT * static_cast<double>(box.width) / box.height)),
                                     1, static_cast<int>(TR_WIDTH));
            cv::resize(bgr, scaled[i], cv::Size(w, TR_HEIGHT), 0, 0,
                       box.height > TR_HEIGHT ? cv::INTER_AREA : cv::INTER_LINEAR);
            if (x > 0 && x + w > TR_WIDTH) {
                strips.emplace_back();
                x = 0;
            }
            strips.back().push_back({i, x, x + w});
            x += w + gap;
        }

        // The strips shared among `threads` threads, each with a net of its own (a net is not
        // shared between threads), each OpenCV call on one thread.
        cv::setNumThreads(1);
        const int used = std::max(1, std::min(threads, static_cast<int>(strips.size())));
        std::vector<std::string> failures(used);
        auto work = [&](int t) {
            try {
                cv::dnn::Net net = cv::dnn::readNetFromONNX(model);
                for (size_t k = t; k < strips.size(); k += used) {
                    const auto &strip = strips[k];
                    if (strip.empty()) continue;
                    cv::Mat input(TR_HEIGHT, TR_WIDTH, CV_32FC3, cv::Scalar(0, 0, 0));
                    for (const auto &p : strip) {
                        cv::Mat normalized;
                        scaled[p.word].convertTo(normalized, CV_32FC3, 1.0 / 127.5, -1.0);
                        normalized.copyTo(input(cv::Rect(p.left, 0, p.right - p.left, TR_HEIGHT)));
                    }
                    net.setInput(cv::dnn::blobFromImage(input));
                    cv::Mat out = net.forward();
                    if (out.dims != 3 || out.size[1] != TR_STEPS) {
                        failures[t] = "the model's output is not one row of class probabilities per column step";
                        return;
                    }
                    if (out.size[2] != characters + 1) {
                        failures[t] = "the model reads " + std::to_string(out.size[2] - 1) +
                                      " characters, and its character list has " + std::to_string(characters);
                        return;
                    }
                    decode(out, strip, readings);
                }
            } catch (const std::exception &e) {
                failures[t] = e.what();
            }
        };
        std::vector<std::thread> helpers;
        for (int t = 1; t < used; t++) helpers.emplace_back(work, t);
        work(0);
        for (auto &h : helpers) h.join();
        for (const auto &f : failures) {
            if (!f.empty()) {
                say(error, error_size, f.c_str());
                return -1;
            }
        }
        return 0;
    });
}

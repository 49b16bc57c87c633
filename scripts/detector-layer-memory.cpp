// Where OpenCV's dnn holds memory while it runs the text detector: for every STEP-th layer, a
// fresh child process runs the network up to that layer (`cv::dnn::Net::forward(name)`, one
// thread, as `lovesnap __detector` does) and prints its peak resident set (VmHWM, KiB) and the
// layer's output shape. The rise from one printed layer to the next is what those layers add.
//
//   g++ -O2 scripts/detector-layer-memory.cpp -o /tmp/layer-memory $(pkg-config --cflags --libs opencv4)
//   /tmp/layer-memory Models/text-detection.onnx 960 736 8      # MODEL WIDTH HEIGHT STEP
//
// Measured in docs/measurements/text-detector.md (session 26).
#include <opencv2/dnn.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

static long peak_kib() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmHWM", 0) == 0) return std::stol(line.substr(6));
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: %s MODEL WIDTH HEIGHT STEP\n", argv[0]);
        return 2;
    }
    const int width = std::atoi(argv[2]), height = std::atoi(argv[3]), step = std::atoi(argv[4]);
    cv::setNumThreads(1);
    const std::vector<cv::String> names = cv::dnn::readNetFromONNX(argv[1]).getLayerNames();
    for (size_t i = 0; i < names.size(); i += static_cast<size_t>(step)) {
        const pid_t child = fork();
        if (child == 0) {
            cv::dnn::Net net = cv::dnn::readNetFromONNX(argv[1]);
            const int shape[] = {1, 3, height, width};
            cv::Mat blob(4, shape, CV_32F);
            cv::randu(blob, -1, 1);
            net.setInput(blob);
            const long before = peak_kib();
            const cv::Mat out = net.forward(names[i]);
            std::printf("%3zu %-40s %-12s peak %6ld KiB (+%6ld) output %dx%dx%d\n", i, names[i].c_str(),
                        net.getLayer(names[i])->type.c_str(), peak_kib(), peak_kib() - before, out.size[1],
                        out.size[2], out.size[3]);
            std::fflush(stdout);
            _exit(0);
        }
        int status = 0;
        waitpid(child, &status, 0);
    }
    return 0;
}

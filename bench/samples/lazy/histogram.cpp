// histogram.cpp: fixed-width buckets over sensor readings, with a text rendering.
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

namespace telemetry {

class Histogram {
public:
    Histogram(double low, double high, int buckets) : low_(low), high_(high), counts_(buckets, 0) {}

    void add(double value) {
        if (value < low_ || value >= high_) {
            ++outside_;
            return;
        }
        const double width = (high_ - low_) / counts_.size();
        const auto index = static_cast<std::size_t>((value - low_) / width);
        ++counts_[std::min(index, counts_.size() - 1)];
        ++total_;
    }

    // The smallest value below which `share` of the readings fall.
    double quantile(double share) const {
        const double wanted = share * total_;
        double seen = 0;
        const double width = (high_ - low_) / counts_.size();
        for (std::size_t i = 0; i < counts_.size(); ++i) {
            seen += counts_[i];
            if (seen >= wanted) {
                return low_ + width * (i + 1);
            }
        }
        return high_;
    }

    std::string render(int columns) const {
        std::ostringstream out;
        const int peak = *std::max_element(counts_.begin(), counts_.end());
        const double scale = peak > 0 ? static_cast<double>(columns) / peak : 0.0;
        for (std::size_t i = 0; i < counts_.size(); ++i) {
            out << std::string(static_cast<std::size_t>(counts_[i] * scale), '#') << '\n';
        }
        out << "outside: " << outside_ << '\n';
        return out.str();
    }

private:
    double low_;
    double high_;
    std::vector<int> counts_;
    int total_ = 0;
    int outside_ = 0;
};

std::vector<double> parse_readings(const std::string& text) {
    std::vector<double> readings;
    std::istringstream in(text);
    std::string token;
    while (std::getline(in, token, ',')) {
        readings.push_back(std::stod(token));
    }
    return readings;
}

Histogram summarize(const std::vector<double>& readings, int buckets) {
    const auto [low, high] = std::minmax_element(readings.begin(), readings.end());
    Histogram histogram(*low, *high + 1e-9, buckets);
    std::for_each(readings.begin(), readings.end(), [&](double r) { histogram.add(r); });
    return histogram;
}

}  // namespace telemetry

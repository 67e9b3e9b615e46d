// Android's own resource runtime as an oracle for pushbox's folder resolution: Debian's
// libandroidfw (android-libandroidfw, the Android 10 sources) judges, per request, which of
// the given values folders serves it — `ResTable_config::match` then `isBetterThan`, as
// AssetManager2 does for a resource defined in each folder.
//
// stdin, one case per line:  REQUEST-TAG FOLDER...   (folders as aapt2 names them:
// values, values-pt-rBR, values-b+sr+Latn); stdout, one line per case: the chosen folder, or
// "-" when none matches.
#include <cstdint>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace android {
// The layout of ResTable_config in Android 10's ResourceTypes.h (only data; the methods
// below are libandroidfw's own, linked from the shared library).
struct ResTable_config {
    uint32_t size;
    uint32_t imsi;
    char language[2];
    char country[2];
    uint32_t screenType;
    uint32_t input;
    uint32_t screenSize;
    uint32_t version;
    uint32_t screenConfig;
    uint32_t screenSizeDp;
    char localeScript[4];
    char localeVariant[8];
    uint8_t screenLayout2;
    uint8_t colorMode;
    uint16_t screenConfigPad2;
    bool localeScriptWasComputed;
    char localeNumberingSystem[8];
    char spare[64];  // room in case the library's struct is longer

    void packLanguage(const char* language);
    void packRegion(const char* region);
    void setBcp47Locale(const char* in);
    bool match(const ResTable_config& settings) const;
    bool isBetterThan(const ResTable_config& o, const ResTable_config* requested) const;
};
}  // namespace android

using android::ResTable_config;

// ResourcesImpl.adjustLanguageTag (Java): the framework asks for the legacy codes.
static std::string adjustLanguageTag(const std::string& tag) {
    size_t dash = tag.find('-');
    std::string language = tag.substr(0, dash);
    std::string rest = dash == std::string::npos ? "" : tag.substr(dash);
    if (language == "id") language = "in";
    else if (language == "yi") language = "ji";
    else if (language == "he") language = "iw";
    return language + rest;
}

static ResTable_config blank() {
    ResTable_config c;
    memset(&c, 0, sizeof c);
    c.size = 64;
    return c;
}

// A folder's configuration as aapt2 writes it: language, region and script as named, no
// computed script.
static bool folderConfig(const std::string& name, ResTable_config& c) {
    c = blank();
    if (name == "values") return true;
    if (name.rfind("values-", 0) != 0) return false;
    std::string q = name.substr(7);
    std::vector<std::string> parts;
    std::string language, script, region;
    if (q.rfind("b+", 0) == 0) {
        std::stringstream in(q.substr(2));
        std::string p;
        while (std::getline(in, p, '+')) parts.push_back(p);
        language = parts[0];
        for (size_t i = 1; i < parts.size(); i++) {
            if (parts[i].size() == 4) script = parts[i];
            else region = parts[i];
        }
    } else {
        std::stringstream in(q);
        std::string p;
        while (std::getline(in, p, '-')) parts.push_back(p);
        language = parts[0];
        if (parts.size() > 1) region = parts[1].substr(1);
    }
    c.packLanguage(language.c_str());
    if (!region.empty()) c.packRegion(region.c_str());
    if (!script.empty()) memcpy(c.localeScript, script.data(), 4);
    return true;
}

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        std::stringstream in(line);
        std::string tag, name;
        in >> tag;
        ResTable_config request = blank();
        request.setBcp47Locale(adjustLanguageTag(tag).c_str());
        std::string best;
        ResTable_config bestConfig = blank();
        while (in >> name) {
            ResTable_config c;
            if (!folderConfig(name, c) || !c.match(request)) continue;
            if (best.empty() || c.isBetterThan(bestConfig, &request)) {
                best = name;
                bestConfig = c;
            }
        }
        std::cout << (best.empty() ? "-" : best) << std::endl;
    }
}

import Foundation

@testable import PushboxLocalization

/// A throwaway app folder written by a test, removed when the fixture goes away.
final class AppFixture {
    let directory: String

    init(_ files: [String: String]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-app-\(UUID().uuidString)").path
        for (path, text) in files { try write(path, Data(text.utf8)) }
    }

    func write(_ path: String, _ data: Data) throws {
        let full = directory + "/" + path
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: full))
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    func localizer(developmentRegion: String = "en") -> Localizer {
        Localizer(app: AppLocalizations(directory: directory, developmentRegion: developmentRegion))
    }
}

/// Parses `.strings` text through the file reader.
func strings(_ text: String) throws(LocalizationFileError) -> [String: String] {
    try StringsFileReader.readStrings(Array(text.utf8), file: "T.strings").table
}

func stringsError(_ text: String) -> LocalizationFileError? {
    do {
        _ = try StringsFileReader.readStrings(Array(text.utf8), file: "T.strings")
        return nil
    } catch { return error }
}

/// A `.stringsdict` plist with one plural key.
func stringsdict(_ key: String, format: String, variables: [String: [String: String]]) -> String {
    var out =
        #"<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd"><plist version="1.0"><dict>"#
    out += "<key>\(key)</key><dict><key>NSStringLocalizedFormatKey</key><string>\(format)</string>"
    for (name, forms) in variables.sorted(by: { $0.key < $1.key }) {
        out += "<key>\(name)</key><dict>"
        for (k, v) in forms.sorted(by: { $0.key < $1.key }) { out += "<key>\(k)</key><string>\(v)</string>" }
        out += "</dict>"
    }
    return out + "</dict></dict></plist>"
}

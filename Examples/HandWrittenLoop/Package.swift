// swift-tools-version: 6.0
// A hand-written loop outside obsbench: an app's own code writing and reading `priority` on 1,000
// records from an array, in turn, counted under Callgrind (issue 36's yardstick).
import PackageDescription

let package = Package(
    name: "handloop",
    platforms: [.macOS(.v15)],
    dependencies: [.package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0")],
    targets: [.executableTarget(name: "handloop", dependencies: [.product(name: "OpenCombine", package: "OpenCombine")])],
    swiftLanguageModes: [.v6]
)

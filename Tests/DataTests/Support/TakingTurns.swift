import Testing

/// Suites that must not run beside one another, nested here so that they
/// take turns. Foundation's `Process.run()` on Linux (Swift 6.3.1) lists
/// `/proc/self/fd` and can read past the end of glibc's buffer when the
/// process holds more than about 1,300 descriptors
/// (swift-corelibs-foundation#5472): a feed-server launched beside the test
/// that holds a thousand live streams open crashed the test process.
@Suite(.serialized) enum TakingTurns {}

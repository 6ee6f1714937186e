import HTTPServer
import Testing

@Suite("The process's allocator")
struct AllocatorTests {
    @Test("A server's malloc is mimalloc's, not glibc's: linking the framework is enough")
    func replacesMalloc() {
        #expect(Allocator.replacesMalloc)
        #expect(Allocator.description.wholeMatch(of: /mimalloc \d+\.\d+\.\d+/) != nil, "\(Allocator.description)")
    }
}

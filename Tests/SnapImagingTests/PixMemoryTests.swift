import CLeptonica
import CPixMemory
import Glibc
import SnapTestSupport
import Testing

@testable import SnapImaging

/// Leptonica's image memory as lovesnap gives it (`CPixMemory`): every page of a new image is
/// written before anything reads it, so that no page is first mapped to the kernel's zero page and
/// then replaced (a TLB shootdown of the other core when two engines read at once).
@Suite(.serialized) struct PixMemoryTests {
    /// Minor page faults of the calling thread so far.
    static func minorFaults() -> Int {
        var usage = rusage()
        // RUSAGE_THREAD (Linux): this thread alone, not the tests running beside it.
        _ = getrusage(__rusage_who_t(1), &usage)
        return usage.ru_minflt
    }

    @Test func leptonicaAllocatesEveryImageWithLovesnapsAllocator() throws {
        let before = pix_memory_allocated_blocks()
        let page = try Image.wrap(pixCreate(1001, 30, 8), "pixCreate")
        #expect(pix_memory_allocated_blocks() == before + 1)
        _ = try Image.wrap(pixCopy(nil, page.pix), "pixCopy")
        #expect(pix_memory_allocated_blocks() == before + 2)
    }

    @Test func aNewImagesPagesAreWrittenOnceAndNotFaultedAgain() throws {
        // 8 bpp, 10001 px wide: rows of 10004 bytes with pad bits to clear at the end of each (the
        // read that used to map the zero page). 70 MB: above 64 MiB, the most a heap of a thread's
        // own arena holds (glibc's HEAP_MAX_SIZE), so on a test thread the block is always new
        // from the kernel (`mmap`). 36 MB did not do: a thread's heap kept from earlier tests'
        // images under the worker's `M_TRIM_THRESHOLD` (256 MiB; `malloc_trim` leaves such a heap
        // alone below it) held the block already faulted in, and a fresh-clone CI run counted no
        // fault on three images.
        let (width, height): (l_int32, l_int32) = (10001, 7000)
        // A small image made and filled first: the code, the thread-local counters and the small
        // blocks those calls use are faulted in before counting (they made the counts flaky).
        let warmUp = try Image.wrap(pixCreateNoInit(width, 8, 8), "pixCreateNoInit")
        #expect(pixSetAll(warmUp.pix) == 0)
        // On the main thread, whose heap is not so bounded, memory freed is given back to the
        // kernel before each image (glibc's `malloc_trim(0)`, found with `dlsym`: Swift's Glibc
        // module leaves malloc.h out): `WorkerServerTests` has this process keep up to 256 MiB of
        // it, and the tests running beside this one free memory at any moment.
        typealias MallocTrim = @convention(c) (Int) -> Int32
        let trim = unsafeBitCast(try #require(dlsym(nil, "malloc_trim")), to: MallocTrim.self)
        // The kernel itself may move a page of a busy machine's between the two counts (memory
        // compaction, khugepaged), and the next touch of it faults: a fresh-clone CI run counted
        // so once. Up to three images are made: one must count exactly. Before the allocator,
        // every one of them faulted again on each page whose pad bits were read first.
        var counts: [(creating: Int, filling: Int, pages: Int)] = []
        for _ in 0..<3 {
            _ = trim(0)
            let faultsBefore = Self.minorFaults()
            let image = try Image.wrap(pixCreateNoInit(width, height, 8), "pixCreateNoInit")
            let faultsCreating = Self.minorFaults() - faultsBefore
            let data = Int(bitPattern: pixGetData(image.pix))
            let bytes = Int(pixGetWpl(image.pix)) * 4 * Int(height)
            let pages = (data + bytes - 1) / 4096 - data / 4096 + 1
            let faultsBeforeFilling = Self.minorFaults()
            #expect(pixSetAll(image.pix) == 0)
            counts.append((faultsCreating, Self.minorFaults() - faultsBeforeFilling, pages))
            // Each page written once (fewer faults with transparent huge pages), none again.
            if faultsCreating >= 1 && faultsCreating <= pages && counts.last!.filling == 0 { break }
        }
        let last = try #require(counts.last)
        #expect(last.creating >= 1 && last.creating <= last.pages, "\(counts)")
        #expect(last.filling == 0, "\(counts)")
    }

    @Test func aPhotoLoadedSharingItsRasterIsMappedElsewhereWithTheSamePixels() throws {
        // The worker loads the photo into a memory file; the reader maps it (here, this process
        // maps its own file through /proc, as the reader does the worker's), copy-on-write.
        let path = TestPaths.fixture("sign-on-stone-wall.jpg")
        let photo = try ImageLoader().load(path, sharingRaster: true).image
        let shared = try #require(photo.sharedRaster)
        #expect(shared.bytes == 1325 * 4 * 795)
        let mapped = try Image.mappingSharedRaster(
            path: "/proc/self/fd/\(shared.descriptor)", width: photo.width, height: photo.height,
            depth: photo.depth, samplesPerPixel: photo.samplesPerPixel, bytes: shared.bytes)
        var same: l_int32 = 0
        #expect(pixEqual(photo.pix, mapped.pix, &same) == 0 && same == 1)
        // A write to the mapping is its own (copy-on-write): the photo keeps its pixels.
        let first = pixGetData(photo.pix)![0]
        pixGetData(mapped.pix)![0] = ~first
        #expect(pixGetData(photo.pix)![0] == first)
        // Loaded without sharing, or anything made after the load, is malloc's.
        #expect(try ImageLoader().load(path).image.sharedRaster == nil)
        #expect(try photo.copied().sharedRaster == nil)
    }
}

import CLeptonica
import CPixMemory
import Glibc
import SnapTestSupport
import Testing

@testable import SnapImaging

/// Leptonica's image memory as lovesnap gives it in its OCR processes (`CPixMemory`, installed by
/// `LibraryTuning.activate`): malloc's, or a memory file another process maps while the photo's
/// raster is shared.
@Suite struct PixMemoryTests {
    /// The allocator is installed in the OCR processes only; these tests install it in this one.
    init() { LibraryTuning.activate() }

    @Test func leptonicaAllocatesEveryImageWithLovesnapsAllocator() throws {
        let before = pix_memory_allocated_blocks()
        let page = try Image.wrap(pixCreate(1001, 30, 8), "pixCreate")
        #expect(pix_memory_allocated_blocks() == before + 1)
        _ = try Image.wrap(pixCopy(nil, page.pix), "pixCopy")
        #expect(pix_memory_allocated_blocks() == before + 2)
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

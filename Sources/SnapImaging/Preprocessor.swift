import CLeptonica
import Foundation

/// Settings of the preparation pipeline (all sizes in pixels of the upright image).
public struct PreprocessingOptions: Codable, Equatable, Sendable {
    /// Default bound on the long side after scaling: 4000 px (Tesseract's own hard limit is 32767).
    public static let defaultMaxDimension = 4000
    /// Median height of the ink's connected components that pages are rescaled to: 26 px, about
    /// the x-height-to-cap-height of 11 pt type at 300 DPI. Chosen by measurement on
    /// the benchmark corpus with scripts/ocr-benchmark.py (20, 26 and 32 px gave mean CER
    /// 0.049–0.050; 26 read the UNLV page best).
    public static let defaultTargetTextHeight = 26.0

    /// The long side is never larger than this after scaling (pixels, ≥ 16).
    public var maxDimension: Int
    /// The median component height the image is rescaled to, when it is far from it (pixels).
    public var targetTextHeight: Double
    /// The black-and-white filter.
    public var binarization: Binarization
    /// Whether to measure the skew (Leptonica `pixFindSkew`) and rotate the page straight.
    public var deskew: Bool
    /// Whether a page of light text on a dark background is inverted.
    public var correctPolarity: Bool
    /// Whether the page is rescaled so its median text height meets `targetTextHeight`
    /// (the `maxDimension` bound applies either way).
    public var rescaleToTextHeight = true
    /// Whether a sheet lying on a darker surface is found, cropped and straightened (`PageFinder`).
    public var findPage = true
    /// When uneven light is evened out before thresholding (Leptonica `pixBackgroundNormSimple`).
    public var normalizeBackground = BackgroundNormalization.whenUneven
    /// Whether curled text lines are straightened (Leptonica `dewarpSinglePage`).
    public var dewarp = true

    /// - Parameters: see the properties; every default is documented on its property.
    public init(
        maxDimension: Int = PreprocessingOptions.defaultMaxDimension,
        targetTextHeight: Double = PreprocessingOptions.defaultTargetTextHeight,
        binarization: Binarization = .tesseract, deskew: Bool = true, correctPolarity: Bool = true
    ) {
        self.maxDimension = max(16, maxDimension)
        self.targetTextHeight = targetTextHeight
        self.binarization = binarization
        self.deskew = deskew
        self.correctPolarity = correctPolarity
    }
}

/// When the preparation evens out the light of a page.
public enum BackgroundNormalization: String, Codable, Sendable, CaseIterable {
    /// Never.
    case never
    /// When the paper's brightness varies by more than `Preprocessor.unevenLightRange` grey levels
    /// across the page (a shadow, a lamp on one side, a dim corner).
    case whenUneven
    /// Always.
    case always
}

/// The image Tesseract gets, and how it relates to the upright photo.
public struct PreparedImage {
    /// 1 bpp after a black-and-white filter, 8 bpp grey for `Binarization.tesseract`, or the photo
    /// itself (any depth) for `Preprocessor.plain`.
    public let image: Image
    /// Prepared pixels per pixel of the upright photo (> 1 when enlarged).
    public var scale: Double
    /// Whether the page was light-on-dark and has been inverted.
    public let inverted: Bool
    /// Light-on-dark regions inverted (not counting a whole inverted page).
    public var invertedRegions = 0
    /// Where the page was found in the photo (pixels after the `maxDimension` bound), when it was
    /// cropped and straightened.
    public var page: PageQuadrilateral? = nil
    /// Whether uneven light was evened out.
    public var backgroundNormalized = false
    /// Whether curled text lines were straightened.
    public var dewarped = false
    /// The geometric steps from the image given to the preparation to `image`: map a point of
    /// `image` back with `geometry.photoPoint`.
    public var geometry = PageGeometry()

    /// Whether the preparation changed what the page shows beyond a small rotation: a page cut
    /// out and straightened, polarity changed, light evened out, lines dewarped, or the page
    /// rescaled by more than 10 %. Such a page is also read plain, and the better reading kept.
    public var isTransformed: Bool {
        page != nil || inverted || invertedRegions > 0 || backgroundNormalized || dewarped || abs(scale - 1) > 0.1
    }
    /// Skew corrected, in degrees (positive = the page was turned clockwise); 0 when none.
    public let deskewDegrees: Double
    /// Median ink component height measured on the upright photo (pixels), nil when too little ink.
    public let measuredTextHeight: Double?
    /// The resolution to tell Tesseract (DPI): text rescaled to the target height reads like a 300 DPI scan.
    public let resolution: Int
}

extension PreparedImage {
    /// A page prepared elsewhere (by another process of this program), of which only its pixels,
    /// `scale` and `resolution` (DPI) are known: what the engine needs to read it.
    package init(handedOver image: Image, scale: Double, resolution: Int) {
        self.init(
            image: image, scale: scale, inverted: false, deskewDegrees: 0, measuredTextHeight: nil,
            resolution: resolution)
    }
}

/// Grey → page found → polarity per region → light → text size → deskew → dewarp →
/// black-and-white, all with Leptonica; each step only where it is needed.
public struct Preprocessor {
    /// The pipeline settings.
    public var options: PreprocessingOptions

    /// - Parameter options: the pipeline settings.
    public init(options: PreprocessingOptions = PreprocessingOptions()) { self.options = options }

    /// The photo as the `tesseract` command line would read it: in colour (Tesseract thresholds
    /// each channel with Otsu and keeps the clearest, which reads white letters on a blue sign
    /// that a grey conversion loses), at its own size up to twice `maxDimension` (8000 px by
    /// default: fine print on a large scan stays readable), nothing else; its resolution is
    /// the file's own, scaled with the image (0 when unknown, which Tesseract then estimates from
    /// the text). The candidate every prepared reading must beat.
    /// - Throws: `ImagingError.operationFailed` when a Leptonica call fails.
    public func plain(_ source: Image) throws -> PreparedImage {
        var image = source
        var scale = 1.0
        let longSide = max(image.width, image.height)
        if longSide > 2 * options.maxDimension {
            scale = Double(2 * options.maxDimension) / Double(longSide)
            image = try image.scaled(by: scale)
        }
        // A photo shrunk has fewer pixels per inch than its file says.
        var prepared = PreparedImage(
            image: image, scale: scale, inverted: false, deskewDegrees: 0, measuredTextHeight: nil,
            resolution: Int((Double(source.resolution) * scale).rounded()))
        prepared.geometry = PageGeometry(scale == 1 ? [] : [.scale(Double(image.width) / Double(source.width))])
        return prepared
    }

    /// Runs the pipeline on an upright, alpha-free image.
    /// - Throws: `ImagingError.operationFailed` when a Leptonica call fails.
    public func prepare(_ source: Image) throws -> PreparedImage {
        var gray = try source.grayscale()
        var scale = 1.0
        var steps: [PageGeometry.Step] = []
        // The scale a step really applied: pixScale rounds each side to whole pixels.
        func scaleStep(from before: Image, to after: Image) {
            steps.append(.scale(Double(after.width) / Double(before.width)))
        }

        let longSide = max(gray.width, gray.height)
        if longSide > options.maxDimension {
            let f = Double(options.maxDimension) / Double(longSide)
            let before = gray
            gray = try gray.scaled(by: f)
            scaleStep(from: before, to: gray)
            scale *= f
        }

        var page: PageQuadrilateral? = nil
        if options.findPage, let quad = try PageFinder.find(gray) {
            let straightened = try PageFinder.straightened(gray, to: quad)
            gray = straightened.image
            steps.append(straightened.step)
            page = quad
        }

        var inverted = false
        var invertedRegions = 0
        if options.correctPolarity {
            let regions = try RegionPolarity.lightOnDarkRegions(gray)
            if let first = regions.first, first.width * first.height * 10 >= gray.width * gray.height * 9 {
                gray = try gray.inverted()
                inverted = true
            } else if !regions.isEmpty {
                gray = try RegionPolarity.invert(regions, in: gray)
                invertedRegions = regions.count
            }
        }

        var normalized = false
        switch options.normalizeBackground {
        case .never: break
        case .always: normalized = true
        case .whenUneven:
            var light = try Preprocessor.paperLight(gray)
            if light.brightest < Preprocessor.dimPaper {
                // A dim photo: stretch its grey levels so the brightest paper is white (Leptonica
                // `pixGammaTRC`, linear), and measure again.
                let top = l_int32(max(16, light.brightest))
                gray = try withExtendedLifetime(gray) {
                    try Image.wrap(pixGammaTRC(nil, gray.pix, 1, 0, top), "pixGammaTRC")
                }
                light = try Preprocessor.paperLight(gray)
                normalized = true
            }
            normalized = normalized || light.brightest - light.darkest > Preprocessor.unevenLightRange
        }
        if normalized, gray.width >= 64, gray.height >= 64 {
            gray = try Image.wrap(pixBackgroundNormSimple(gray.pix, nil, nil), "pixBackgroundNormSimple")
        } else {
            normalized = false
        }

        // One black-and-white probe serves both measurements: text height and skew angle
        // (the angle does not change with the scale). Large pages are probed at half size:
        // a quarter of the pixels to normalize, and glyphs still several pixels high.
        let probeScale = max(gray.width, gray.height) > 2400 ? 0.5 : 1.0
        let probe = try (probeScale == 1 ? gray : gray.scaled(by: probeScale)).binarized(.otsu)
        let measured = try Preprocessor.medianComponentHeight(probe).map { $0 / probeScale }
        let scaleAtMeasure = scale
        if let measured, options.rescaleToTextHeight {
            let factor = scaleFactor(textHeight: measured, width: gray.width, height: gray.height)
            if factor != 1 {
                let before = gray
                gray = try gray.scaled(by: factor)
                scaleStep(from: before, to: gray)
                scale *= factor
            }
        }

        var skew = 0.0
        if options.deskew && probe.width >= 64 && probe.height >= 64 {
            var angle: l_float32 = 0
            var confidence: l_float32 = 0
            // Leptonica's pixFindSkew reductions (sweep in 1° steps at 1/4 size, binary search at
            // 1/2 size, halved when the probe is already at half size), over ±20° instead of its
            // default ±7°: a page photographed on a white table is often turned 8–20°, and
            // Tesseract reads nothing of it then.
            let (sweep, search): (l_int32, l_int32) = probeScale == 1 ? (4, 2) : (2, 1)
            if pixFindSkewSweepAndSearch(
                probe.pix, &angle, &confidence, sweep, search, Preprocessor.maximumSkew, 1, 0.01) == 0,
                confidence >= 3, abs(angle) >= 0.3, abs(angle) <= Preprocessor.maximumSkew
            {
                gray = try gray.rotated(degrees: Double(angle))
                steps.append(
                    .rotation(
                        degrees: Double(angle), centerX: Double(gray.width / 2), centerY: Double(gray.height / 2)))
                skew = Double(angle)
            }
        }

        var dewarped = false
        if options.dewarp, gray.width >= 200, gray.height >= 200 {
            let disparity: PageGeometry.Step?
            (gray, disparity) = try Preprocessor.dewarped(gray)
            if let disparity {
                steps.append(disparity)
                dewarped = true
            }
        }

        let bw = try gray.binarized(options.binarization)
        var prepared = PreparedImage(
            image: bw, scale: scale, inverted: inverted, deskewDegrees: skew,
            measuredTextHeight: measured.map { $0 / scaleAtMeasure },
            resolution: 300)
        prepared.invertedRegions = invertedRegions
        prepared.page = page
        prepared.backgroundNormalized = normalized
        prepared.dewarped = dewarped
        prepared.geometry = PageGeometry(steps)
        return prepared
    }

    /// Grey levels between the darkest and brightest paper across a page above which its light
    /// counts as uneven (the 5th and 95th percentiles of the page with its print closed away).
    public static let unevenLightRange = 40.0
    /// Grey level under which the brightest paper counts as dim (a photo taken in poor light).
    public static let dimPaper = 150.0

    /// The paper's brightness (grey levels, 0–255): the page reduced to 300 px on its long side,
    /// its print removed by a grey closing (Leptonica `pixCloseGray`), then the 5th and the 95th
    /// percentile.
    static func paperLight(_ gray: Image) throws -> (darkest: Double, brightest: Double) {
        let small = try gray.scaled(by: min(1, 300 / Double(max(gray.width, gray.height))))
        guard small.width >= 16, small.height >= 16 else { return (255, 255) }
        let brick = l_int32(max(3, (max(small.width, small.height) / 40) | 1))
        let closed = try withExtendedLifetime(small) {
            try Image.wrap(pixCloseGray(small.pix, brick, brick), "pixCloseGray")
        }
        let values = closed.pixelValues().sorted()
        return (Double(values[values.count * 5 / 100]), Double(values[values.count * 95 / 100]))
    }

    /// The largest skew measured and corrected (degrees, either way).
    static let maximumSkew: l_float32 = 20

    /// The line curvature (Leptonica's unit: 10⁶ × the quadratic coefficient of a line's fit,
    /// in pixels of the page modelled) from which a page counts as curled.
    static let minimumCurvature: l_int32 = 80

    /// The line curvature of a large page's model at half size from which its full-size model is
    /// built (`halfSizeModelAbove`). A curve measures twice as much at half size (the unit is per
    /// pixel). Measured on 333 preparations (the corpus, the stress set, 80 more stress pages, 40
    /// more curled pages, and those 40 enlarged 2.6×): every page with a full-size curvature of
    /// 80 or more whose half-size model could be built measured at least 1.7 times as much at
    /// half size (the least 200, against 85; three small curled pages, 800×936 to 1014×2048,
    /// had none); of the 57 pages larger than `halfSizeModelAbove`, none whose half-size model
    /// measured less or could not be built had a full-size one of more than 11.
    static let minimumCurvatureAtHalfSize: l_int32 = 120

    /// The long side (pixels) above which a page is modelled at half size first: a small page's
    /// model costs little at full size, and a half-size model of one with few lines (800×936, a
    /// curled poem) may find too few lines that are long enough to be built at all.
    static let halfSizeModelAbove = 2400

    /// The page with its text lines straightened, and whether they were: Leptonica's page model
    /// (`dewarpCreate`, `dewarpBuildPageModel`, `dewarpaApplyDisparity`) built from the text lines
    /// of the page thresholded after background normalization, with whatever touches the page's
    /// border removed first (a strip of table or the next page would pass for a long line and
    /// make every real line look short). Leptonica's defaults are made for prose; a poem has short
    /// lines of uneven length, so a model needs 6 lines instead of 15, and line curvatures up to
    /// 1000 are accepted instead of 180.
    ///
    /// A page larger than `halfSizeModelAbove` is modelled at half size first
    /// (`pixScaleAreaMap2`: a quarter of the pixels to threshold and to search for lines, 0.05 s
    /// instead of 0.33 s on a 3091×4000 letter page), and at full size, to be applied, only when
    /// its lines curve at least `minimumCurvatureAtHalfSize`. When no model can be built, or the
    /// lines curve less than `minimumCurvature`, the page comes back unchanged.
    static func dewarped(_ gray: Image) throws -> (Image, PageGeometry.Step?) {
        if max(gray.width, gray.height) > halfSizeModelAbove {
            let half = try withExtendedLifetime(gray) {
                try Image.wrap(pixScaleAreaMap2(gray.pix), "pixScaleAreaMap2")
            }
            guard let curvature = try withPageModel(of: half, { model, _ in model.curvature }),
                curvature >= minimumCurvatureAtHalfSize
            else { return (gray, nil) }
        }
        return try withPageModel(of: gray) { model, dewa in
            guard model.curvature >= minimumCurvature else { return nil }
            return try applied(model.pointer, dewa, to: gray)
        } ?? (gray, nil)
    }

    /// A page model (`dewarpBuildPageModel`) of the 8 bpp `gray` handed to `body` with its
    /// dewarpa, with its largest line curvature (Leptonica's unit); nil when none can be built.
    private static func withPageModel<T>(
        of gray: Image,
        _ body: ((pointer: UnsafeMutablePointer<L_DEWARP>, curvature: l_int32), UnsafeMutablePointer<L_DEWARPA>) throws
            -> T?
    ) throws -> T? {
        guard let dewa = dewarpaCreate(1, 0, 1, 6, -1) else { return nil }
        var d: UnsafeMutablePointer<L_DEWARPA>? = dewa
        defer { dewarpaDestroy(&d) }
        dewarpaUseBothArrays(dewa, 0)
        dewarpaSetCheckColumns(dewa, 0)
        dewarpaSetCurvatures(dewa, 1000, 0, 1000, -1, -1, -1)
        let binary = try gray.binarized(.otsu)
        let lines = try withExtendedLifetime(binary) {
            try Image.wrap(pixRemoveBorderConnComps(binary.pix, 8), "pixRemoveBorderConnComps")
        }
        // The dewarpa owns the model once inserted.
        guard let model = withExtendedLifetime(lines, { dewarpCreate(lines.pix, 0) }) else { return nil }
        dewarpaInsertDewarp(dewa, model)
        guard dewarpBuildPageModel(model, nil) == 0, model.pointee.vsuccess != 0 else { return nil }
        // A flat page's lines measure a curvature of up to about 60 (ink, JPEG, perspective); a
        // curled page's are 85 and more (`minimumCurvature`).
        let curvature = max(abs(model.pointee.mincurv), abs(model.pointee.maxcurv))
        return try body((model, curvature), dewa)
    }

    /// `gray` straightened by `model`'s vertical disparity (`dewarpaApplyDisparity`), with the
    /// step that maps its points back; nil when Leptonica fails.
    private static func applied(
        _ model: UnsafeMutablePointer<L_DEWARP>, _ dewa: UnsafeMutablePointer<L_DEWARPA>, to gray: Image
    ) throws -> (Image, PageGeometry.Step?)? {
        var out: UnsafeMutablePointer<PIX>? = nil
        let rc = withExtendedLifetime(gray) { dewarpaApplyDisparity(dewa, 0, gray.pix, -1, 0, 0, &out, nil) }
        guard rc == 0, let out else { return nil }
        let image = Image(taking: out)
        // Where each straightened pixel came from: the full-resolution disparity Leptonica just
        // applied, sampled every 8 pixels.
        var samples: [Float] = []
        let step = 8
        let columns = (image.width + step - 1) / step
        // dewarpaApplyDisparity may leave the model's full-resolution array unset: the same
        // array again (`dewarpPopulateFullRes`, from the model's sampled disparity).
        if model.pointee.fullvdispar == nil {
            _ = withExtendedLifetime(gray) { dewarpPopulateFullRes(model, gray.pix, 0, 0) }
        }
        if let full = model.pointee.fullvdispar {
            for y in stride(from: 0, to: image.height, by: step) {
                for x in stride(from: 0, to: image.width, by: step) {
                    var value: l_float32 = 0
                    _ = fpixGetPixel(full, l_int32(x), l_int32(y), &value)
                    samples.append(value)
                }
            }
        }
        return (image, .verticalDisparity(samples: samples, step: step, columns: columns))
    }

    /// The factor that brings a median component height of `textHeight` px to the target,
    /// or 1 when it is already within [0.7, 2.5] × target; bounded by `maxDimension` and by a 4× enlargement.
    func scaleFactor(textHeight: Double, width: Int, height: Int) -> Double {
        let target = options.targetTextHeight
        guard textHeight > 0 else { return 1 }
        if textHeight >= target * 0.7 && textHeight <= target * 2.5 { return 1 }
        var f = target / textHeight
        f = min(f, 4)
        f = min(f, Double(options.maxDimension) / Double(max(width, height)))
        return abs(f - 1) < 0.05 ? 1 : f
    }

    /// The median height (pixels of `image`) of its print: `image` in grey, black and white by
    /// Otsu on its normalized background (`Binarization.otsu`), its character-like components'
    /// median height (`medianComponentHeight`); nil when no print is measured. What the
    /// preparation measures, for callers that size other work by the print (the text detector's
    /// input).
    /// - Throws: `ImagingError.operationFailed` naming the Leptonica call that failed.
    public static func medianTextHeight(of image: Image) throws -> Double? {
        try medianComponentHeight(try image.grayscale().binarized(.otsu))
    }

    /// Median height (pixels) of the ink's connected components that look like characters, or nil
    /// when fewer than 5 remain or when they are not print: fewer than `minimumShareInRows` of
    /// them stand in rows as letters do (`LetterRows.inRows`). Drops specks (under 3 px high),
    /// rules and frames (wider than 5× their height) and blobs taller than a third of the page.
    ///
    /// A texture's flecks (a stone wall around a sign) measured as "text" of 7 px enlarged the
    /// photo 2× for nothing: unmeasured, it is read at its own size.
    static func medianComponentHeight(_ binary: Image) throws -> Double? {
        let maxH = max(3, binary.height / 3)
        let boxes = try binary.componentBoxes()
            .filter { $0.height >= 3 && $0.height <= maxH && $0.width <= 5 * $0.height && $0.width < binary.width / 2 }
        guard boxes.count >= 5,
            Double(LetterRows.inRows(boxes)) >= Preprocessor.minimumShareInRows * Double(boxes.count)
        else { return nil }
        let heights = boxes.map(\.height).sorted()
        return Double(heights[heights.count / 2])
    }

    /// The least share (0–1) of a page's character-like components that must stand in rows
    /// (`LetterRows.inRows`) for their median height to be taken as the text height: 43–100 % on
    /// the 145 pages of print measured (corpus and stress set), 2 % on a stone wall's texture.
    static let minimumShareInRows = 0.1
}

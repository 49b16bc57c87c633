#ifndef LOVESNAP_BRICK_MORPHOLOGY_H
#define LOVESNAP_BRICK_MORPHOLOGY_H

/// How many openings, erosions, dilations and safe closings by a brick the calling thread has made
/// with Leptonica's composite bricks instead (see brick_morphology.c), for tests.
long brick_morphology_composite_count(void);

/// Leptonica's own `pixOpenBrick`, `pixCloseSafeBrick`, `pixErodeBrick` and `pixDilateBrick`
/// (by `kind` 0–3), which the interposed functions hand what they do not make themselves (for
/// tests: the reference to compare with). NULL when not found.
void *brick_morphology_leptonica_function(int kind);

#endif

// The peer of the .tgs benchmark: rlottie driven by a plain C loop, no Swift in between.
#ifndef RLOTTIE_LOOP_H
#define RLOTTIE_LOOP_H
#include <stddef.h>
#include <stdint.h>

typedef struct Lottie_Animation_S RLottieLoopAnimation;

/// Loads NUL-terminated Lottie JSON; NULL if rlottie rejects it.
RLottieLoopAnimation *rlottie_loop_open(const char *json);

/// Renders `count` frames (cycling through the animation) at width × height into `buffer` (ARGB32 words).
void rlottie_loop_render(RLottieLoopAnimation *animation, size_t width, size_t height, size_t count, uint32_t *buffer);

/// The same loop for a caller that wants R, G, B, A bytes: after each render the frame is converted in place with a
/// plain C loop (what a C player feeding an RGBA pipeline would write; the same swap formula as ours).
void rlottie_loop_render_rgba(
    RLottieLoopAnimation *animation, size_t width, size_t height, size_t count, uint32_t *buffer);

/// Renders frame `frame` once at width × height into `buffer` (ARGB32 words): the benchmark's untimed check that
/// every frame the C loop draws equals ours.
void rlottie_loop_render_frame(
    RLottieLoopAnimation *animation, size_t frame, size_t width, size_t height, uint32_t *buffer);

/// The animation's frame count (the loops cycle through it).
size_t rlottie_loop_frame_count(RLottieLoopAnimation *animation);

void rlottie_loop_close(RLottieLoopAnimation *animation);

#endif

#include "rlottie_loop.h"
#include <rlottie_capi.h>

RLottieLoopAnimation *rlottie_loop_open(const char *json) {
    return lottie_animation_from_data(json, "", "");
}

void rlottie_loop_render(RLottieLoopAnimation *animation, size_t width, size_t height, size_t count, uint32_t *buffer) {
    size_t total = lottie_animation_get_totalframe(animation);
    for (size_t i = 0; i < count; i++) {
        lottie_animation_render(animation, i % total, buffer, width, height, width * 4);
    }
}

void rlottie_loop_render_rgba(
    RLottieLoopAnimation *animation, size_t width, size_t height, size_t count, uint32_t *buffer) {
    size_t total = lottie_animation_get_totalframe(animation);
    size_t pixels = width * height;
    for (size_t i = 0; i < count; i++) {
        lottie_animation_render(animation, i % total, buffer, width, height, width * 4);
        // ARGB32 words (B, G, R, A bytes on little-endian) to R, G, B, A bytes: swap bits 0-7 and 16-23, with the
        // same formula as ImageCore's `Bitmap.swapRedAndBlue`, so the two sides differ only in language.
        for (size_t p = 0; p < pixels; p++) {
            uint32_t w = buffer[p];
            uint32_t t = (w ^ (w >> 16)) & 0xFFu;
            buffer[p] = w ^ t ^ (t << 16);
        }
    }
}

void rlottie_loop_render_frame(
    RLottieLoopAnimation *animation, size_t frame, size_t width, size_t height, uint32_t *buffer) {
    lottie_animation_render(animation, frame, buffer, width, height, width * 4);
}

size_t rlottie_loop_frame_count(RLottieLoopAnimation *animation) {
    return lottie_animation_get_totalframe(animation);
}

void rlottie_loop_close(RLottieLoopAnimation *animation) {
    lottie_animation_destroy(animation);
}

/* The oracle: renders one frame of a Lottie file with rlottie's C API directly and writes the raw ARGB32 words.
   Usage: rlottie-render file.json frame width height out.raw */
#include <rlottie_capi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 6) { fprintf(stderr, "usage: %s file frame width height out\n", argv[0]); return 2; }
    Lottie_Animation *animation = lottie_animation_from_file(argv[1]);
    if (!animation) { fprintf(stderr, "cannot load %s\n", argv[1]); return 1; }
    size_t frame = (size_t)atol(argv[2]), width = (size_t)atol(argv[3]), height = (size_t)atol(argv[4]);
    uint32_t *buffer = calloc(width * height, 4);
    lottie_animation_render(animation, frame, buffer, width, height, width * 4);
    FILE *out = fopen(argv[5], "wb");
    fwrite(buffer, 4, width * height, out);
    fclose(out);
    printf("%zu %f\n", lottie_animation_get_totalframe(animation), lottie_animation_get_framerate(animation));
    free(buffer);
    lottie_animation_destroy(animation);
    return 0;
}

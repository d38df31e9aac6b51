/* Makes JPEG files JPEGEncoder does not write, with TurboJPEG's C API directly: four-component (Adobe CMYK,
   stored inverted as libjpeg-turbo does: 255 is no ink) quadrants of red, green, blue and black; progressive;
   restart markers every row of MCUs.
   Usage: turbojpeg-make cmyk|progressive|restart width height out.jpg */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: %s cmyk|progressive|restart width height out.jpg\n", argv[0]); return 2; }
    int width = atoi(argv[2]), height = atoi(argv[3]);
    int cmyk = strcmp(argv[1], "cmyk") == 0, flags = 0, subsampling = TJSAMP_420;
    unsigned char *pixels = malloc((size_t)width * height * 4);
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            unsigned char *p = pixels + ((size_t)y * width + x) * 4;
            if (cmyk) {
                /* Stored (inverted) C, M, Y, K of the quadrants: red, green / blue, black. */
                static const unsigned char quadrant[4][4] = {
                    {255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 255, 0}};
                memcpy(p, quadrant[(y >= height / 2) * 2 + (x >= width / 2)], 4);
            } else {
                p[0] = (unsigned char)(x * 255 / (width > 1 ? width - 1 : 1));
                p[1] = (unsigned char)(y * 255 / (height > 1 ? height - 1 : 1));
                p[2] = 128;
                p[3] = 255;
            }
        }
    }
    if (cmyk) subsampling = TJSAMP_444;
    else if (strcmp(argv[1], "progressive") == 0) flags |= TJFLAG_PROGRESSIVE;
    else if (strcmp(argv[1], "restart") == 0) setenv("TJ_RESTART", "1B", 1);
    else { fprintf(stderr, "unknown kind %s\n", argv[1]); return 2; }
    tjhandle handle = tjInitCompress();
    unsigned char *jpeg = NULL;
    unsigned long size = 0;
    if (tjCompress2(handle, pixels, width, width * 4, height, cmyk ? TJPF_CMYK : TJPF_RGBA, &jpeg, &size,
                    subsampling, 90, flags) != 0) {
        fprintf(stderr, "tjCompress2: %s\n", tjGetErrorStr2(handle));
        return 1;
    }
    FILE *out = fopen(argv[4], "wb");
    if (!out || fwrite(jpeg, 1, size, out) != size || fclose(out) != 0) { perror(argv[4]); return 1; }
    tjFree(jpeg);
    tjDestroy(handle);
    free(pixels);
    return 0;
}

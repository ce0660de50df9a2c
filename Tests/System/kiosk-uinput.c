/*
 * kiosk-uinput: the system test's fake hardware. Makes input devices through /dev/uinput that look to the kernel,
 * udev and consentd like the real ones, and draws signatures on the pen.
 *
 *   kiosk-uinput create pen|touch|mouse|keyboard   creates the device, prints its event node (/dev/input/eventN),
 *                                                  then reads commands from stdin until "exit" or EOF, which
 *                                                  destroys the device:
 *       sign        two strokes (24 and 16 points), pen lifted after each; prints "signed 2 24 16"
 *       half        pen down and 8 points, never lifted (the test then unplugs the pen mid-stroke)
 *       stroke N    one stroke of N points, then the pen lifts
 *   kiosk-uinput read NODE SECONDS                 opens NODE (no grab) and prints how many events it read in
 *                                                  SECONDS ("events 0" while another process holds EVIOCGRAB)
 *
 * The pen copies a Wacom Cintiq 16 (DTK-1660, USB 056a:0390): its axes, resolution (200 units/mm, so
 * 348.16 x 197.59 mm), 8192 pressure levels, tilt, tool and stylus buttons, and INPUT_PROP_DIRECT. The touch screen
 * is a multitouch panel (slots, tracking ids, INPUT_PROP_DIRECT); the mouse and keyboard are plain USB ones that the
 * kiosk's udev rule must leave alone. Built with gcc -static on the host, so the guest needs nothing for it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define PEN_MAX_X 69632
#define PEN_MAX_Y 39518
#define PEN_MAX_PRESSURE 8191

static void die(const char *what) {
    fprintf(stderr, "kiosk-uinput: %s: %s\n", what, strerror(errno));
    exit(2);
}

static void xioctl(int fd, unsigned long request, long value, const char *what) {
    if (ioctl(fd, request, value) < 0) die(what);
}

static void emit(int fd, int type, int code, int value) {
    struct input_event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = type;
    ev.code = code;
    ev.value = value;
    if (write(fd, &ev, sizeof ev) != sizeof ev) die("write event");
}

static void frame(int fd) {
    emit(fd, EV_SYN, SYN_REPORT, 0);
    struct timespec pause = {0, 8 * 1000 * 1000}; /* 8 ms: a real pen reports at about 120-200 Hz */
    nanosleep(&pause, NULL);
}

static void axis(int fd, int code, int min, int max, int fuzz, int resolution) {
    struct uinput_abs_setup a;
    memset(&a, 0, sizeof a);
    a.code = code;
    a.absinfo.minimum = min;
    a.absinfo.maximum = max;
    a.absinfo.fuzz = fuzz;
    a.absinfo.resolution = resolution;
    xioctl(fd, UI_ABS_SETUP, (long)&a, "UI_ABS_SETUP");
    xioctl(fd, UI_SET_ABSBIT, code, "UI_SET_ABSBIT");
}

static void setup_pen(int fd, struct uinput_setup *s) {
    xioctl(fd, UI_SET_EVBIT, EV_KEY, "EV_KEY");
    xioctl(fd, UI_SET_EVBIT, EV_ABS, "EV_ABS");
    xioctl(fd, UI_SET_EVBIT, EV_MSC, "EV_MSC");
    int keys[] = {BTN_TOOL_PEN, BTN_TOOL_RUBBER, BTN_TOUCH, BTN_STYLUS, BTN_STYLUS2};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) xioctl(fd, UI_SET_KEYBIT, keys[i], "UI_SET_KEYBIT");
    xioctl(fd, UI_SET_MSCBIT, MSC_SERIAL, "UI_SET_MSCBIT");
    xioctl(fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT, "UI_SET_PROPBIT");
    axis(fd, ABS_X, 0, PEN_MAX_X, 4, 200);
    axis(fd, ABS_Y, 0, PEN_MAX_Y, 4, 200);
    axis(fd, ABS_PRESSURE, 0, PEN_MAX_PRESSURE, 0, 0);
    axis(fd, ABS_TILT_X, -64, 63, 0, 57);
    axis(fd, ABS_TILT_Y, -64, 63, 0, 57);
    axis(fd, ABS_DISTANCE, 0, 63, 0, 0);
    axis(fd, ABS_MISC, 0, 0x7fffffff, 0, 0);
    s->id.bustype = BUS_USB;
    s->id.vendor = 0x056a;
    s->id.product = 0x0390;
    s->id.version = 0x0110;
    snprintf(s->name, sizeof s->name, "Wacom Cintiq 16 Pen");
}

static void setup_touch(int fd, struct uinput_setup *s) {
    xioctl(fd, UI_SET_EVBIT, EV_KEY, "EV_KEY");
    xioctl(fd, UI_SET_EVBIT, EV_ABS, "EV_ABS");
    xioctl(fd, UI_SET_KEYBIT, BTN_TOUCH, "BTN_TOUCH");
    xioctl(fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT, "INPUT_PROP_DIRECT");
    axis(fd, ABS_X, 0, 4095, 0, 16);
    axis(fd, ABS_Y, 0, 4095, 0, 28);
    axis(fd, ABS_MT_SLOT, 0, 9, 0, 0);
    axis(fd, ABS_MT_TRACKING_ID, 0, 65535, 0, 0);
    axis(fd, ABS_MT_POSITION_X, 0, 4095, 0, 16);
    axis(fd, ABS_MT_POSITION_Y, 0, 4095, 0, 28);
    s->id.bustype = BUS_USB;
    s->id.vendor = 0x0eef;
    s->id.product = 0x790a;
    snprintf(s->name, sizeof s->name, "eGalax Inc. eGalaxTouch EXC3000");
}

static void setup_mouse(int fd, struct uinput_setup *s) {
    xioctl(fd, UI_SET_EVBIT, EV_KEY, "EV_KEY");
    xioctl(fd, UI_SET_EVBIT, EV_REL, "EV_REL");
    xioctl(fd, UI_SET_KEYBIT, BTN_LEFT, "BTN_LEFT");
    xioctl(fd, UI_SET_KEYBIT, BTN_RIGHT, "BTN_RIGHT");
    xioctl(fd, UI_SET_KEYBIT, BTN_MIDDLE, "BTN_MIDDLE");
    xioctl(fd, UI_SET_RELBIT, REL_X, "REL_X");
    xioctl(fd, UI_SET_RELBIT, REL_Y, "REL_Y");
    xioctl(fd, UI_SET_RELBIT, REL_WHEEL, "REL_WHEEL");
    s->id.bustype = BUS_USB;
    s->id.vendor = 0x046d;
    s->id.product = 0xc077;
    snprintf(s->name, sizeof s->name, "Logitech USB Optical Mouse");
}

static void setup_keyboard(int fd, struct uinput_setup *s) {
    xioctl(fd, UI_SET_EVBIT, EV_KEY, "EV_KEY");
    xioctl(fd, UI_SET_EVBIT, EV_REP, "EV_REP");
    for (int k = KEY_ESC; k <= KEY_KPDOT; k++) xioctl(fd, UI_SET_KEYBIT, k, "UI_SET_KEYBIT");
    s->id.bustype = BUS_USB;
    s->id.vendor = 0x413c;
    s->id.product = 0x2113;
    snprintf(s->name, sizeof s->name, "Dell KB216 Wired Keyboard");
}

/* One pen stroke of n points across the middle of the screen, a gentle wave; lifted unless keep_down. */
static void pen_stroke(int fd, int n, double x0, double x1, int keep_down) {
    emit(fd, EV_ABS, ABS_DISTANCE, 10);
    emit(fd, EV_KEY, BTN_TOOL_PEN, 1);
    emit(fd, EV_ABS, ABS_X, (int)(x0 * PEN_MAX_X));
    emit(fd, EV_ABS, ABS_Y, PEN_MAX_Y / 2);
    frame(fd); /* hover: in proximity, no ink */
    for (int i = 0; i < n; i++) {
        double f = n > 1 ? (double)i / (n - 1) : 0;
        int x = (int)((x0 + (x1 - x0) * f) * PEN_MAX_X);
        int y = (int)((0.5 + 0.15 * ((i % 4 < 2) ? 1 : -1) * f) * PEN_MAX_Y) + i * 37;
        if (i == 0) {
            emit(fd, EV_ABS, ABS_DISTANCE, 0);
            emit(fd, EV_KEY, BTN_TOUCH, 1);
        }
        emit(fd, EV_ABS, ABS_X, x);
        emit(fd, EV_ABS, ABS_Y, y);
        emit(fd, EV_ABS, ABS_PRESSURE, 3000 + (i % 5) * 200);
        emit(fd, EV_ABS, ABS_TILT_X, 20);
        emit(fd, EV_ABS, ABS_TILT_Y, -12);
        emit(fd, EV_MSC, MSC_SERIAL, 0x1234567);
        frame(fd);
    }
    if (keep_down) return;
    emit(fd, EV_ABS, ABS_PRESSURE, 0);
    emit(fd, EV_KEY, BTN_TOUCH, 0);
    emit(fd, EV_ABS, ABS_DISTANCE, 10);
    frame(fd);
    emit(fd, EV_KEY, BTN_TOOL_PEN, 0);
    frame(fd);
}

static int create(const char *kind) {
    int fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) die("open /dev/uinput");
    struct uinput_setup s;
    memset(&s, 0, sizeof s);
    if (!strcmp(kind, "pen")) setup_pen(fd, &s);
    else if (!strcmp(kind, "touch")) setup_touch(fd, &s);
    else if (!strcmp(kind, "mouse")) setup_mouse(fd, &s);
    else if (!strcmp(kind, "keyboard")) setup_keyboard(fd, &s);
    else {
        fprintf(stderr, "kiosk-uinput: unknown device kind %s\n", kind);
        return 1;
    }
    xioctl(fd, UI_DEV_SETUP, (long)&s, "UI_DEV_SETUP");
    xioctl(fd, UI_DEV_CREATE, 0, "UI_DEV_CREATE");

    char sysname[64] = {0};
    if (ioctl(fd, UI_GET_SYSNAME(sizeof sysname), sysname) < 0) die("UI_GET_SYSNAME");
    /* The event node appears under the input device once the kernel has registered the handler. */
    char node[300] = {0};
    for (int tries = 0; tries < 200 && !node[0]; tries++) {
        char dir[160];
        snprintf(dir, sizeof dir, "/sys/devices/virtual/input/%s", sysname);
        DIR *d = opendir(dir);
        if (d) {
            struct dirent *e;
            while ((e = readdir(d)))
                if (!strncmp(e->d_name, "event", 5)) {
                    snprintf(node, sizeof node, "/dev/input/%s", e->d_name);
                    break;
                }
            closedir(d);
        }
        if (!node[0]) usleep(10000);
    }
    printf("%s\n", node[0] ? node : "unknown");
    fflush(stdout);

    char line[128];
    while (fgets(line, sizeof line, stdin)) {
        int n = 0;
        if (!strncmp(line, "exit", 4)) break;
        if (!strncmp(line, "sign", 4)) {
            pen_stroke(fd, 24, 0.10, 0.45, 0);
            pen_stroke(fd, 16, 0.50, 0.80, 0);
            printf("signed 2 24 16\n");
        } else if (!strncmp(line, "half", 4)) {
            pen_stroke(fd, 8, 0.10, 0.30, 1);
            printf("half 8\n");
        } else if (sscanf(line, "stroke %d", &n) == 1 && n > 0 && n < 10000) {
            pen_stroke(fd, n, 0.10, 0.90, 0);
            printf("stroke %d\n", n);
        } else if (!strncmp(line, "click", 5)) {
            emit(fd, EV_REL, REL_X, 5);
            emit(fd, EV_KEY, BTN_LEFT, 1);
            frame(fd);
            emit(fd, EV_KEY, BTN_LEFT, 0);
            frame(fd);
            printf("clicked\n");
        } else {
            printf("unknown command\n");
        }
        fflush(stdout);
    }
    ioctl(fd, UI_DEV_DESTROY);
    close(fd);
    return 0;
}

static int read_events(const char *node, int seconds) {
    int fd = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) die(node);
    long count = 0;
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        long left = seconds * 1000L - ((now.tv_sec - start.tv_sec) * 1000L + (now.tv_nsec - start.tv_nsec) / 1000000L);
        if (left <= 0) break;
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, (int)left) <= 0) continue;
        struct input_event ev[64];
        ssize_t r = read(fd, ev, sizeof ev);
        if (r > 0) count += r / (ssize_t)sizeof ev[0];
        else if (r < 0 && errno != EAGAIN) break;
    }
    printf("events %ld\n", count);
    close(fd);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && !strcmp(argv[1], "create")) return create(argv[2]);
    if (argc == 4 && !strcmp(argv[1], "read")) return read_events(argv[2], atoi(argv[3]));
    fprintf(stderr, "usage: kiosk-uinput create pen|touch|mouse|keyboard | read NODE SECONDS\n");
    return 1;
}

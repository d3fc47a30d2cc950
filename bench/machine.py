"""What the benchmarks ran on: ratios to gcc move with the processor (an
interpreter loop that gcc turns into a jump table gains more on some than
on others), so each report names it."""


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown processor"

# Prints as fast as it can, forever.
opening()
line = "flood " * 20 + "\n"
while True:
    sys.stdout.write(line * 1000)

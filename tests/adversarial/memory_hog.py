# Takes memory 100 MB at a time, touching every page, up to 8 GB.
opening()
hog = []
for i in range(80):
    hog.append(bytearray(b"\x01") * (100 << 20))
    print(f"\nheld {len(hog) * 100} MB", flush=True)
input()

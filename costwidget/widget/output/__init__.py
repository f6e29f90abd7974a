"""What leaves the kernel: snapshots, the offline HTML page and its spec, the front end's
payload, static figures, tidy frames."""

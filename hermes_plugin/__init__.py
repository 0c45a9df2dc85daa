"""What personaweb ships for other programs to load (not imported by the project)."""

// Placeholder; implemented in a following commit.
int main() { return 1; }

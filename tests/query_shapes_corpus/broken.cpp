class Broken {
    void ok() {}
    int missing( { return 1; }
};

int Broken::later() { return 2 }

void free_function() {
    if (x {
}

int Broken::after() { return 3; }

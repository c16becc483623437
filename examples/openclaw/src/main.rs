fn main() {
    lola_openclaw::main()
}

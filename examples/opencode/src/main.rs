fn main() {
    lola_opencode::main()
}

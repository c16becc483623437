fn main() {
    lola_cursor::main()
}

/// Lines of `objdump -l`'s listing that asmrun reads (the ABI checks' sites, the alignment check).
package enum ObjdumpLine {
    /// `/tmp/abi//clobber.asm:9` (or `… (discriminator 1)`): the line of one of `sources` (whose
    /// last path components are `names`) it names; the path may hold spaces
    /// (`/home/ann/my labs/clobber.asm:9`).
    package static func place(_ line: Substring, names: [String], sources: [String]) -> FileLocation? {
        var head = line
        if head.hasSuffix(")"), let open = head.lastIndex(of: "("), head[..<open].hasSuffix(" ") {
            head = head[..<head.index(before: open)]
        }
        guard let colon = head.lastIndex(of: ":"), let number = Int(head[head.index(after: colon)...]),
            let index = names.firstIndex(of: PathName.lastComponent(of: String(head[..<colon])))
        else { return nil }
        return FileLocation(sources[index], line: number)
    }
}

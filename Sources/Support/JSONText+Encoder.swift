/// The Encoder behind `JSONText.render`: every container writes into a `Slot` of the tree.
struct TreeEncoder: Encoder {
    let slot: Slot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if slot.object == nil { slot.object = [:] }
        return KeyedEncodingContainer(KeyedSlots<Key>(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if slot.array == nil { slot.array = [] }
        return UnkeyedSlots(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleSlot(slot: slot, codingPath: codingPath) }
}

private struct KeyedSlots<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let slot: Slot
    let codingPath: [any CodingKey]

    private func child(_ key: Key) -> Slot {
        let child = Slot()
        slot.object![JSONText.snakeCase(key.stringValue)] = child
        return child
    }

    mutating func encodeNil(forKey key: Key) throws { child(key).scalar = "null" }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try child(key).set(value, codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        TreeEncoder(slot: child(key), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        TreeEncoder(slot: child(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { TreeEncoder(slot: slot, codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { TreeEncoder(slot: child(key), codingPath: codingPath + [key]) }
}

private struct UnkeyedSlots: UnkeyedEncodingContainer {
    let slot: Slot
    let codingPath: [any CodingKey]
    var count: Int { slot.array!.count }

    private func next() -> Slot {
        let child = Slot()
        slot.array!.append(child)
        return child
    }

    mutating func encodeNil() throws { next().scalar = "null" }
    mutating func encode<T: Encodable>(_ value: T) throws { try next().set(value, codingPath: codingPath) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        TreeEncoder(slot: next(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        TreeEncoder(slot: next(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { TreeEncoder(slot: next(), codingPath: codingPath) }
}

private struct SingleSlot: SingleValueEncodingContainer {
    let slot: Slot
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { slot.scalar = "null" }
    mutating func encode<T: Encodable>(_ value: T) throws { try slot.set(value, codingPath: codingPath) }
}

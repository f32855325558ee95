/// Keeps both sides of a relationship in step in memory, as SwiftData does when one side is set: setting
/// `bird.species` adds the bird to `species.birds`, and adding a bird to `species.birds` sets its `species`.
enum Inverses {
    /// The models a relationship's value holds (none for nil or an empty array).
    static func models(in value: Any) -> [any PersistentModel] {
        guard let value = unwrapped(value) else { return [] }
        if let model = value as? any PersistentModel { return [model] }
        return value as? [any PersistentModel] ?? []
    }

    /// After `property` of `owner` changed from `old` to `new`: the other side of each added or removed object.
    static func maintain(_ property: Entity.Property, of owner: _ModelBackingData, from old: Any, to new: Any) {
        guard let me = owner.model, let inverse = owner.entity.inverse(of: property), let target = property.target else { return }
        // Two relationships naming one inverse (a backyard's leading and trailing plants): setting the to-one side
        // cannot say which list to join, so only the lists set the to-one side.
        let other = Entity.of(target)
        if case .toOne = property.kind, other.properties.filter({ $0.declaredInverse == property.keyPath }).count > 1 { return }
        let before = models(in: old), after = models(in: new)
        let removed = before.filter { old in !after.contains { $0 === old } }
        let added = after.filter { new in !before.contains { $0 === new } }
        for object in removed { detach(me, from: object.persistentBackingData, at: inverse) }
        for object in added { attach(me, to: object.persistentBackingData, at: inverse) }
    }

    private static func attach(_ me: any PersistentModel, to other: _ModelBackingData, at inverse: Entity.Property) {
        switch inverse.kind {
        case .toOne:
            other.record(me as Any, forKey: inverse.name)
        case .toMany:
            var list = other.related(inverse)
            guard !list.contains(where: { $0 === me }) else { return }
            list.append(me)
            other.record(array(list, for: inverse), forKey: inverse.name)
        case .attribute: break
        }
    }

    private static func detach(_ me: any PersistentModel, from other: _ModelBackingData, at inverse: Entity.Property) {
        switch inverse.kind {
        case .toOne:
            if models(in: other.resolved(inverse.name)).first === me {
                other.record(none(for: inverse), forKey: inverse.name)
            }
        case .toMany:
            let list = other.related(inverse)
            guard list.contains(where: { $0 === me }) else { return }
            other.record(array(list.filter { $0 !== me }, for: inverse), forKey: inverse.name)
        case .attribute: break
        }
    }

    /// A to-many relationship's value as its declared array type.
    static func array(_ models: [any PersistentModel], for property: Entity.Property) -> Any {
        let declared = type(of: property.keyPath).valueType
        let base = (declared as? any OptionalValue.Type)?.wrappedType ?? declared
        return (base as? any CollectionOfModels.Type)?.makeArray(models) ?? models
    }

    /// A to-one relationship's nil, as its declared optional type.
    static func none(for property: Entity.Property) -> Any {
        (type(of: property.keyPath).valueType as? any OptionalValue.Type)?.noneValue ?? (nil as Any?) as Any
    }
}
